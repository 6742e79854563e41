import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from './mailer.ts';
import { startTestSmtp } from './smtp-test-server.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-mail-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function capture() {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { log, lines };
}

describe('mailer without SMTP_URL', () => {
  it('writes an .eml file under DATA_DIR/outbox and logs the link', async () => {
    const { log, lines } = capture();
    const mailer = createMailer({ smtpUrl: undefined, from: 'GDB <no-reply@example.test>', dataDir: dir, log });
    expect(mailer.mode).toBe('outbox');
    await mailer.send(
      { to: 'jane@example.test', subject: 'Hello', text: 'Go to https://app.example/x?t=1' },
      { link: 'https://app.example/x?t=1' },
    );
    const files = fs.readdirSync(path.join(dir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = fs.readFileSync(path.join(dir, 'outbox', files[0] ?? ''), 'utf8');
    expect(eml).toContain('To: jane@example.test');
    expect(eml).toContain('Subject: Hello');
    expect(lines.some((l) => l.link === 'https://app.example/x?t=1' && l.to === 'jane@example.test')).toBe(true);
  });
});

describe('mailer with SMTP_URL', () => {
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('delivers through the SMTP server', async () => {
    const { log } = capture();
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'GDB <no-reply@example.test>', dataDir: dir, log });
    expect(mailer.mode).toBe('smtp');
    await mailer.send({ to: 'joe@example.test', subject: 'Welcome', text: 'Body text' });
    const mail = await smtp.waitFor('joe@example.test');
    expect(mail.text).toContain('Subject: Welcome');
    expect(mail.text).toContain('Body text');
    mailer.close();
  });

  it('fails when the server cannot be reached', async () => {
    const { log } = capture();
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: 'x@example.test', dataDir: dir, log });
    await expect(mailer.send({ to: 'a@example.test', subject: 's', text: 't' })).rejects.toThrow();
  });
});
