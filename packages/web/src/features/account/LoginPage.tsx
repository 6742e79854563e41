import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { IMPORT_TITLE, landingAfterLogin, safeRedirect } from '@gdb/shared/routes/web-routes';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { showFailure } from '../../ground/request/failure.ts';
import { clearTokens, saveTokens } from '../../ground/request/token-store.ts';
import { rolesOf, userInfoQuery, VERIFICATION_FAILED } from '../../ground/session/session.ts';
import { useFocusReturn } from '../../ui/useFocusReturn.ts';
import { login } from './api.ts';
import { type LoginForm, loginFormSchema, zodRule } from './login-form.ts';
import type { TfaChallenge } from './TfaDialog.tsx';
import './login.css';

// Most sign-ins never need the two-factor dialog: it loads when asked for.
const TfaDialog = lazy(() => import('./TfaDialog.tsx').then((m) => ({ default: m.TfaDialog })));

/** Where the browser goes when the sign-in answer asks for the no-code app. */
const NOCODE_PATH = '/nocode/';

/** Leaves this app for another page of the site (replaced in tests). */
export const leaveApp = { to: (url: string) => window.location.assign(url) };

/** The sign-in page (docs/product.md §4.1). */
export function LoginPage() {
  const [form] = Form.useForm<LoginForm>();
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<TfaChallenge | null>(null);
  // The toast is not announced: the same words go to a live region screen readers read out.
  const [said, setSaid] = useState('');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  // The dialog unmounts as it closes: the focus goes back to what opened it (Login, or the field Enter was pressed in).
  const focus = useFocusReturn();

  const showError = (error: unknown) =>
    showFailure(error, (text) => {
      setSaid(text);
      void message.error(text);
    });

  /** With the session stored: the no-code app, or the requested page, or the role's landing page. */
  const land = async (goNocode: boolean) => {
    if (goNocode) {
      leaveApp.to(NOCODE_PATH);
      return;
    }
    let roles: string[];
    try {
      roles = rolesOf(await queryClient.fetchQuery(userInfoQuery()));
    } catch {
      clearTokens();
      setSaid(VERIFICATION_FAILED);
      void message.error(VERIFICATION_FAILED);
      return;
    }
    await navigate(safeRedirect(params.get('redirect')) ?? landingAfterLogin(roles), { replace: true });
  };

  const onFinish = async (values: LoginForm) => {
    setBusy(true);
    setSaid('');
    try {
      const answer = await login({ username: values.username.trim(), password: values.password });
      if (answer.tfa) {
        focus.opened();
        setChallenge(answer.tfa);
        return;
      }
      if (!answer.token || !answer.refreshToken) throw new Error('Unexpected answer from POST /users/login: no token');
      saveTokens(answer.token, answer.refreshToken);
      await land(answer.goNocode);
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="gdb-login">
      <Form<LoginForm>
        form={form}
        className="gdb-login-form"
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => void onFinish(values)}
        autoComplete="on"
      >
        <h1 className="gdb-login-title">
          Access <span>{IMPORT_TITLE}</span>
        </h1>
        <Form.Item name="username" rules={[zodRule(loginFormSchema.shape.username)]}>
          <Input
            prefix={<UserOutlined />}
            placeholder="firstname.lastname"
            aria-label="Username"
            autoComplete="username"
            autoFocus
          />
        </Form.Item>
        <Form.Item name="password" rules={[zodRule(loginFormSchema.shape.password)]}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder="Password"
            aria-label="Password"
            autoComplete="current-password"
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          Login
        </Button>
        <div role="alert" className="gdb-sr-only">
          {said}
        </div>
        <div className="gdb-login-links">
          <Link to="/forgotten">Forgot your password ?</Link>
        </div>
      </Form>
      {challenge ? (
        <Suspense fallback={null}>
          <TfaDialog
            challenge={challenge}
            onSession={(answer) => saveTokens(answer.token, answer.refreshToken)}
            onDone={(answer) => {
              setChallenge(null);
              void land(answer.goNocode);
            }}
            onCancel={() => {
              setChallenge(null);
              focus.closed();
            }}
          />
        </Suspense>
      ) : null}
    </main>
  );
}
