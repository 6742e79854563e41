import { LockOutlined } from '@ant-design/icons';
import { PASSWORD_MESSAGES } from '@gdb/shared/auth/password-rules';
import { IMPORT_TITLE } from '@gdb/shared/routes/web-routes';
import { Alert, App, Button, Form, Input } from 'antd';
import { useId, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorText, wasShown } from '../../ground/request/failure.ts';
import { createPassword } from './api.ts';
import { passwordProblems } from './password-form.ts';
import './login.css';

/** Shown when the call fails without saying why (docs/product.md §4.3). */
const CREATE_PASSWORD_FAILED = 'cannot create password';

interface PasswordForm {
  password: string;
  confirm: string;
}

/** What failed, said once: the form's fields that failed and why, or the server's refusal. */
type Failure = { fields: { password?: string; confirm?: string } } | { server: string };

/** The one message of a failure: the spec's failed-form words, then each field that failed and why. */
function FailureAlert({ id, failure }: { id: string; failure: Failure }) {
  if ('server' in failure) return <Alert id={id} type="error" showIcon role="alert" title={failure.server} />;
  const { password, confirm } = failure.fields;
  const description = (
    <ul className="gdb-login-problems">
      {password ? <li>Password: {password}</li> : null}
      {confirm ? <li>Confirm password: {confirm}</li> : null}
    </ul>
  );
  return <Alert id={id} type="error" showIcon role="alert" title={PASSWORD_MESSAGES.failedForm} description={description} />;
}

/**
 * The create-password page (docs/product.md §4.3), opened from the emailed link: the token in query t,
 * the user name in query un; on success 'The password has been successfully set.' and the sign-in.
 * A failure is named once, in one alert above the button (docs/decisions.md).
 */
export function CreatePasswordPage() {
  const [form] = Form.useForm<PasswordForm>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const alertId = useId();
  const token = params.get('t') ?? '';
  const userName = params.get('un') ?? '';
  const fields = failure && 'fields' in failure ? failure.fields : {};

  const submit = async () => {
    const values = form.getFieldsValue(true) as Partial<PasswordForm>;
    const typed = { password: values.password ?? '', confirm: values.confirm ?? '' };
    const problems = passwordProblems(typed.password, typed.confirm, userName);
    if (problems.password || problems.confirm) {
      setFailure({ fields: problems });
      return;
    }
    setFailure(null);
    setBusy(true);
    try {
      await createPassword({ password: typed.password, token });
      void message.success(PASSWORD_MESSAGES.set);
      await navigate('/login', { replace: true });
    } catch (error) {
      if (!wasShown(error)) setFailure({ server: errorText(error, CREATE_PASSWORD_FAILED) });
    } finally {
      setBusy(false);
    }
  };

  // A field that failed is marked, and described by the one alert that says why.
  const marked = (text: string | undefined) => (text ? { 'aria-invalid': true, 'aria-describedby': alertId } : {});

  return (
    <main className="gdb-login">
      <Form<PasswordForm>
        form={form}
        className="gdb-login-form"
        layout="vertical"
        requiredMark={false}
        onFinish={() => void submit()}
      >
        <h1 className="gdb-login-title">
          Create password <span>{IMPORT_TITLE}</span>
        </h1>
        {userName ? <p className="gdb-login-text">{userName}</p> : null}
        {/* Lets the browser's password manager file the new password under the right account. */}
        <input type="text" name="username" value={userName} autoComplete="username" readOnly hidden />
        <Form.Item label="Password" name="password" validateStatus={fields.password ? 'error' : undefined}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder="Password"
            autoComplete="new-password"
            autoFocus
            {...marked(fields.password)}
          />
        </Form.Item>
        <Form.Item label="Confirm password" name="confirm" validateStatus={fields.confirm ? 'error' : undefined}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder="Confirm password"
            autoComplete="new-password"
            {...marked(fields.confirm)}
          />
        </Form.Item>
        {failure ? <FailureAlert id={alertId} failure={failure} /> : null}
        <Button type="primary" htmlType="submit" block loading={busy} className="gdb-login-submit">
          Validate
        </Button>
        <div className="gdb-login-links">
          <Link to="/login">Back to login</Link>
        </div>
      </Form>
    </main>
  );
}
