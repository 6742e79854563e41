import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Keys the server signs tokens and encrypts secrets with. */
export interface Secrets {
  tokenKey: Uint8Array;
  encryptionKey: Buffer;
}

function derive(master: Buffer, label: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', master, Buffer.alloc(0), label, 32));
}

/**
 * Keys come from APP_SECRET when set (every instance of a cluster must share it), else from
 * `DATA_DIR/secrets.json`, generated on first start with owner-only permissions.
 */
export function loadSecrets(appSecret: string | undefined, dataDir: string): Secrets {
  let master: Buffer;
  if (appSecret) {
    master = Buffer.from(appSecret, 'utf8');
  } else {
    const file = path.join(dataDir, 'secrets.json');
    if (fs.existsSync(file)) {
      const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { master?: unknown };
      if (typeof stored.master !== 'string') throw new Error(`${file} has no master key`);
      master = Buffer.from(stored.master, 'base64');
    } else {
      master = crypto.randomBytes(32);
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ master: master.toString('base64') }), { mode: 0o600, flag: 'wx' });
    }
  }
  return { tokenKey: new Uint8Array(derive(master, 'access-token')), encryptionKey: derive(master, 'encryption') };
}

/** AES-256-GCM: iv.tag.ciphertext, base64url parts. */
export function encrypt(key: Buffer, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

export function decrypt(key: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !tag || !body) throw new Error('sealed value is malformed');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/** A token for a link or a session: random, URL-safe. */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/** Tokens are stored as their SHA-256, never in clear. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('base64url');
}
