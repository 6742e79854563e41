import http from 'node:http';
import { BASE } from './test-app.ts';

const BOUNDARY = 'gdb-upload-client-boundary';

/** The start of a multipart field. */
export function fieldPart(name: string, value: string): Buffer {
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
}

/** The head of a file part: its bytes follow, then {@link partEnd}. */
export function fileHead(field: string, filename: string): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`,
  );
}

export const partEnd = Buffer.from('\r\n');
export const bodyEnd = Buffer.from(`--${BOUNDARY}--\r\n`);

/** A whole multipart body of these parts ({@link fieldPart}, {@link fileHead} then bytes then {@link partEnd}) with its content type. */
export function multipartBody(parts: readonly Uint8Array[]): { body: Buffer; headers: Record<string, string> } {
  return { body: Buffer.concat([...parts, bodyEnd]), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { code: number; message: string; data: unknown };
}

/** An upload request over a real connection, its body sent piece by piece as the test says. */
export interface OpenUpload {
  /** Sends bytes of the body, waiting while the connection's buffer is full. */
  send(bytes: Uint8Array): Promise<void>;
  /** Ends the body and answers the server's answer. */
  finish(): Promise<Answer>;
  /** The server's answer, whenever it comes (before the body ends when the server refuses early). */
  answer: Promise<Answer>;
  /** Drops the connection, as a client that goes away. */
  abort(): void;
}

/**
 * Opens `POST /uploads` on the app at `url` with the token; the body's length is declared when
 * given, else it is sent in chunks.
 */
export function openUpload(url: string, token: string, declared?: number): OpenUpload {
  const headers: http.OutgoingHttpHeaders = { 'x-token': token, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
  if (declared !== undefined) headers['content-length'] = declared;
  const req = http.request(`${url}${BASE}/uploads`, { method: 'POST', headers });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString()) }),
      );
    });
  });
  answer.catch(() => undefined);
  req.flushHeaders();
  return {
    async send(bytes) {
      if (req.destroyed || req.writableEnded) return;
      if (req.write(bytes)) return;
      // Until the buffer drains, or the connection closes (the server answered early, the test aborted).
      await new Promise<void>((resolve) => {
        const go = () => {
          req.off('drain', go);
          req.off('close', go);
          resolve();
        };
        req.on('drain', go);
        req.on('close', go);
      });
    },
    finish() {
      if (!req.writableEnded) req.end();
      return answer;
    },
    answer,
    abort: () => req.destroy(),
  };
}
