import { SMTPServer } from 'smtp-server';

/** A message as the test SMTP server received it. */
export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The raw message with quoted-printable soft breaks and escapes decoded. */
  text: string;
}

/** Decodes quoted-printable text (soft line breaks and =XX escapes). */
function decodeQuotedPrintable(raw: string): string {
  const bytes = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The first create-password link in a message. */
export function passwordLinkIn(mail: { text: string }): URL {
  const m = /https?:\/\/[^\s"<>]+\/create-password\?[^\s"<>]+/.exec(mail.text);
  if (!m) throw new Error(`no create-password link in:\n${mail.text}`);
  return new URL(m[0].replaceAll('&amp;', '&'));
}

/** A real SMTP server on 127.0.0.1 for tests: it keeps what it receives, after `delayMs` if asked. */
export async function startTestSmtp(options: { delayMs?: number } = {}) {
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, text: decodeQuotedPrintable(raw) });
        setTimeout(() => {
          for (const w of waiters.splice(0)) w();
          callback();
        }, options.delayMs ?? 0);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('the SMTP server has no port');
  const { port } = address;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Waits for a message to this address (the newest one after `after` messages). */
    async waitFor(to: string, after = 0, timeoutMs = 10_000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.slice(after).find((m) => m.to.includes(to));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
