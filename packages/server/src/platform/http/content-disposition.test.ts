import { describe, expect, it } from 'vitest';
import { attachmentHeader } from './content-disposition.ts';

describe('attachment header', () => {
  it('names any file in UTF-8, with an ASCII stand-in', () => {
    expect(attachmentHeader('Händler-€.csv')).toBe(
      `attachment; filename="H_ndler-_.csv"; filename*=UTF-8''H%C3%A4ndler-%E2%82%AC.csv`,
    );
    expect(attachmentHeader(`it's (a) "b"\\*.csv`)).toBe(
      `attachment; filename="it's (a) _b__*.csv"; filename*=UTF-8''it%27s%20%28a%29%20%22b%22%5C%2A.csv`,
    );
    expect(attachmentHeader('东京 🚗\ud800.csv')).toBe(
      `attachment; filename="__ __.csv"; filename*=UTF-8''%E4%B8%9C%E4%BA%AC%20%F0%9F%9A%97%EF%BF%BD.csv`,
    );
  });

  it('answers a value a header may hold', () => {
    for (const name of ['Händler-€.csv', 'a\u2028b', '\u00ff\u0100', 'plain.csv']) {
      expect(attachmentHeader(name)).toMatch(/^[\x20-\x7e]+$/);
    }
  });
});
