import { MailOutlined } from '@ant-design/icons';
import { FORGOTTEN_MESSAGES } from '@gdb/shared/auth/password-rules';
import { IMPORT_TITLE } from '@gdb/shared/routes/web-routes';
import { Alert, App, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { showFailure } from '../../ground/request/failure.ts';
import { forgotten } from './api.ts';
import { forgottenEmailError } from './password-form.ts';
import './login.css';

/** Shown when the call fails without saying why (docs/product.md §4.4). */
const FORGOTTEN_FAILED = 'cannot ask for reset password.';

/** The forgotten-password page (docs/product.md §4.4): an email, then the same words whether it exists or not. */
export function ForgottenPage() {
  const [form] = Form.useForm<{ email: string }>();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [asked, setAsked] = useState(false);

  const onFinish = async ({ email }: { email: string }) => {
    setBusy(true);
    try {
      await forgotten({ email: email.trim() });
      setAsked(true);
    } catch (error) {
      showFailure(error, message.error, FORGOTTEN_FAILED);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="gdb-login">
      <Form<{ email: string }>
        form={form}
        className="gdb-login-form"
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => void onFinish(values)}
        onFinishFailed={() => void message.error(FORGOTTEN_MESSAGES.failedForm)}
      >
        <h1 className="gdb-login-title">
          Forgotten password <span>{IMPORT_TITLE}</span>
        </h1>
        {asked ? (
          <>
            <Alert type="success" showIcon title={FORGOTTEN_MESSAGES.asked} />
            <div className="gdb-login-links">
              <Link to="/login">Back to login</Link>
            </div>
          </>
        ) : (
          <>
            <Form.Item
              name="email"
              rules={[
                {
                  validator: async (_: unknown, value: unknown) => {
                    const text = forgottenEmailError(typeof value === 'string' ? value : '');
                    if (text) throw new Error(text);
                  },
                },
              ]}
            >
              <Input prefix={<MailOutlined />} placeholder="Email" aria-label="Email" autoComplete="email" autoFocus />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy}>
              Validate
            </Button>
            <div className="gdb-login-links">
              <Link to="/login">Cancel</Link>
            </div>
          </>
        )}
      </Form>
    </main>
  );
}
