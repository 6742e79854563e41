import { IMPORT_TITLE } from '@gdb/shared/routes/web-routes';
import type { MailMessage } from '../../platform/mail/mailer.ts';

export type LinkPurpose = 'create' | 'reset';

/** The link a password mail carries: the create-password page with the token and the user name. */
export function passwordLink(publicUrl: string, token: string, userName: string): string {
  const q = new URLSearchParams({ t: token, un: userName });
  return `${publicUrl}/create-password?${q.toString()}`;
}

function validity(hours: number): string {
  return hours % 24 === 0 ? `${hours / 24} day${hours === 24 ? '' : 's'}` : `${hours} hour${hours === 1 ? '' : 's'}`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The mail that carries a password link: a new account's first password, or a reset. */
export function passwordMail(
  to: { email: string; firstName: string; lastName: string; userName: string },
  purpose: LinkPurpose,
  link: string,
  validHours: number,
): MailMessage {
  const hello = `Hello ${to.firstName} ${to.lastName},`;
  const intro =
    purpose === 'create'
      ? `An account has been created for you on ${IMPORT_TITLE}. Your user name is ${to.userName}.`
      : `A new password was requested for your ${IMPORT_TITLE} account ${to.userName}.`;
  const action = purpose === 'create' ? 'Choose your password' : 'Choose a new password';
  const note = `The link works once and for ${validity(validHours)}.`;
  const ignore = purpose === 'reset' ? 'If you did not ask for it, you can ignore this message.' : '';
  return {
    to: to.email,
    subject: purpose === 'create' ? `Your ${IMPORT_TITLE} account` : `Reset your ${IMPORT_TITLE} password`,
    text: [hello, '', intro, '', `${action}: ${link}`, '', note, ignore].join('\n').trim(),
    html: [
      `<p>${escapeHtml(hello)}</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`,
      `<p>${escapeHtml(note)} ${escapeHtml(ignore)}</p>`,
    ].join('\n'),
  };
}
