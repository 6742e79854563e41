import { LockOutlined } from '@ant-design/icons';
import { PASSWORD_MESSAGES } from '@gdb/shared/auth/password-rules';
import { IMPORT_TITLE } from '@gdb/shared/routes/web-routes';
import { App, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { showFailure } from '../../ground/request/failure.ts';
import { createPassword } from './api.ts';
import { confirmFieldError, passwordFieldError } from './password-form.ts';
import './login.css';

/** Shown when the call fails without saying why (docs/product.md §4.3). */
const CREATE_PASSWORD_FAILED = 'cannot create password';

interface PasswordForm {
  password: string;
  confirm: string;
}

/**
 * The create-password page (docs/product.md §4.3), opened from the emailed link: the token in query t,
 * the user name in query un; on success 'The password has been successfully set.' and the sign-in.
 */
export function CreatePasswordPage() {
  const [form] = Form.useForm<PasswordForm>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const token = params.get('t') ?? '';
  const userName = params.get('un') ?? '';

  const check = (error: (values: PasswordForm) => string | null) => ({
    validator: async () => {
      const values = form.getFieldsValue(true);
      const text = error({ password: values.password ?? '', confirm: values.confirm ?? '' });
      if (text) throw new Error(text);
    },
  });

  const onFinish = async (values: PasswordForm) => {
    setBusy(true);
    try {
      await createPassword({ password: values.password, token });
      void message.success(PASSWORD_MESSAGES.set);
      await navigate('/login', { replace: true });
    } catch (error) {
      showFailure(error, message.error, CREATE_PASSWORD_FAILED);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="gdb-login">
      <Form<PasswordForm>
        form={form}
        className="gdb-login-form"
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => void onFinish(values)}
        onFinishFailed={() => void message.error(PASSWORD_MESSAGES.failedForm)}
      >
        <h1 className="gdb-login-title">
          Create password <span>{IMPORT_TITLE}</span>
        </h1>
        {userName ? <p className="gdb-login-text">{userName}</p> : null}
        {/* Lets the browser's password manager file the new password under the right account. */}
        <input type="text" name="username" value={userName} autoComplete="username" readOnly hidden />
        <Form.Item label="Password" name="password" rules={[check((v) => passwordFieldError(v.password, userName))]}>
          <Input.Password prefix={<LockOutlined />} placeholder="Password" autoComplete="new-password" autoFocus />
        </Form.Item>
        <Form.Item
          label="Confirm password"
          name="confirm"
          dependencies={['password']}
          rules={[check((v) => confirmFieldError(v.password, v.confirm))]}
        >
          <Input.Password prefix={<LockOutlined />} placeholder="Confirm password" autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          Validate
        </Button>
        <div className="gdb-login-links">
          <Link to="/login">Back to login</Link>
        </div>
      </Form>
    </main>
  );
}
