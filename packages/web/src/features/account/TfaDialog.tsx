import type { TfaAnswer } from '@gdb/shared/auth/account.schemas';
import { isTfaCodeLength, LOGIN_MESSAGES, TFA_CODE_MAX } from '@gdb/shared/auth/login-rules';
import type { LoginAnswer } from '@gdb/shared/auth/session.schemas';
import { Alert, App, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { errorText, showFailure } from '../../ground/request/failure.ts';
import { Dialog } from '../../ui/dialog/Dialog.tsx';
import { verifyTfa } from './api.ts';

export type TfaChallenge = NonNullable<LoginAnswer['tfa']>;

const TFA_TEXTS = {
  setup: 'Scan this QR code with your authenticator app, or enter the secret below, then type the 6-digit code it shows.',
  ask: 'Type the 6-digit code of your authenticator app, or one of your recovery codes.',
  codeLength: 'The code must have 6 to 10 characters',
  codesWarning:
    'Two-factor authentication is on. Store these recovery codes in a safe place: each one signs you in once instead of a 6-digit code, and they will not be shown again.',
  copy: 'Copy to clipboard',
} as const;

export interface TfaDialogProps {
  challenge: TfaChallenge;
  /** A valid code: the session to keep. */
  onSession: (answer: TfaAnswer) => void;
  /** The dialog is done after a valid code (and, after a first setup, once the codes were seen). */
  onDone: (answer: TfaAnswer) => void;
  onCancel: () => void;
}

/** Copies text with the Clipboard API, or the older selection command where that API is missing. */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  document.body.appendChild(area);
  area.select();
  const done = document.execCommand('copy');
  area.remove();
  if (!done) throw new Error('The browser refused to copy.');
}

/**
 * The two-factor dialog of the sign-in (docs/product.md §4.2): the setup (QR image and secret) on a first
 * sign-in, a code of 6 to 10 characters (Enter submits), then the recovery codes once.
 */
export function TfaDialog({ challenge, onSession, onDone, onCancel }: TfaDialogProps) {
  const { message } = App.useApp();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<TfaAnswer | null>(null);
  const codes = answer?.recoveryCodes ?? null;

  const validate = async () => {
    if (busy) return;
    const clean = code.trim();
    if (!isTfaCodeLength(clean)) {
      setError(TFA_TEXTS.codeLength);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const result = await verifyTfa({ _id: challenge._id, code: clean });
      onSession(result);
      if (result.recoveryCodes && result.recoveryCodes.length > 0) setAnswer(result);
      else onDone(result);
    } catch (e) {
      setCode('');
      showFailure(e, message.error);
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    try {
      await copyText((codes ?? []).join('\n'));
      void message.success(LOGIN_MESSAGES.codesCopied);
    } catch (e) {
      void message.error(errorText(e));
    }
  };

  if (answer && codes) {
    return (
      <Dialog
        open
        title={LOGIN_MESSAGES.tfaTitle}
        closable={false}
        maskClosable={false}
        keyboard={false}
        footer={[
          <Button key="copy" onClick={() => void copy()}>
            {TFA_TEXTS.copy}
          </Button>,
          <Button key="ok" type="primary" onClick={() => onDone(answer)}>
            OK
          </Button>,
        ]}
      >
        <Alert type="warning" showIcon title={TFA_TEXTS.codesWarning} />
        <ol className="gdb-tfa-codes" aria-label="Recovery codes">
          {codes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ol>
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      title={LOGIN_MESSAGES.tfaTitle}
      maskClosable={false}
      onCancel={onCancel}
      footer={[
        <Button key="cancel" onClick={onCancel}>
          Cancel
        </Button>,
        <Button key="validate" type="primary" loading={busy} onClick={() => void validate()}>
          Validate
        </Button>,
      ]}
    >
      {challenge.qrcode || challenge.secret ? (
        <div className="gdb-tfa-setup">
          <Typography.Paragraph>{TFA_TEXTS.setup}</Typography.Paragraph>
          {challenge.qrcode ? <img className="gdb-tfa-qr" src={challenge.qrcode} alt="QR code of the two-factor secret" /> : null}
          {challenge.secret ? (
            <Typography.Paragraph>
              Secret: <code className="gdb-tfa-secret">{challenge.secret}</code>
            </Typography.Paragraph>
          ) : null}
        </div>
      ) : (
        <Typography.Paragraph>{TFA_TEXTS.ask}</Typography.Paragraph>
      )}
      <Form.Item validateStatus={error ? 'error' : ''} help={error} className="gdb-tfa-code">
        <Input
          autoFocus
          value={code}
          maxLength={TFA_CODE_MAX}
          placeholder={LOGIN_MESSAGES.tfaPlaceholder}
          aria-label="Two-factor code"
          autoComplete="one-time-code"
          onChange={(e) => {
            setCode(e.target.value);
            setError(null);
          }}
          onPressEnter={() => void validate()}
        />
      </Form.Item>
    </Dialog>
  );
}
