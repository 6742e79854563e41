// The payload's JSON text, given whole or in parts: texts and the UTF-8 bytes of stored files.
// The server hands a large file's bytes over as they are (its memory moves, nothing is copied)
// and they are decoded here, in the isolate's own thread, instead of in the server's event loop.
import { applyFn, isArray, StringCtor } from './base.ts';

const fromCharCode = StringCtor.fromCharCode;
const ArrayBufferCtor = ArrayBuffer;
const Uint16ArrayCtor = Uint16Array;
/** Code units decoded before they are made into text together. */
const UNITS = 8192;
const REPLACEMENT = 0xfffd;

/** How many bytes follow a lead byte in UTF-8; 0 for a byte that cannot lead a character. */
function followers(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 1;
  if (lead >= 0xe0 && lead <= 0xef) return 2;
  if (lead >= 0xf0 && lead <= 0xf4) return 3;
  return 0;
}

/**
 * The text of UTF-8 bytes as the server's TextDecoder reads them: each ill-formed sequence, as
 * far as it goes before the byte that breaks it, becomes one U+FFFD. The second byte's range
 * after E0, ED, F0 and F4 keeps out overlong forms, surrogates and points past U+10FFFF.
 */
function utf8Text(bytes: Uint8Array): string {
  const n = bytes.length;
  const store = new ArrayBufferCtor(UNITS * 2);
  const units = new Uint16ArrayCtor(store);
  let text = '';
  let u = 0;
  let i = 0;
  while (i < n) {
    if (u > UNITS - 2) {
      text += applyFn(fromCharCode, null, new Uint16ArrayCtor(store, 0, u));
      u = 0;
    }
    const lead = bytes[i++] as number;
    if (lead < 0x80) {
      units[u++] = lead;
      continue;
    }
    const need = followers(lead);
    let lower = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    let upper = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    let point = lead & (0xff >> (need + 2));
    let ok = need > 0;
    for (let k = 0; ok && k < need; k++) {
      const next = i < n ? (bytes[i] as number) : -1;
      ok = next >= lower && next <= upper;
      if (!ok) break;
      point = (point << 6) | (next & 0x3f);
      lower = 0x80;
      upper = 0xbf;
      i++;
    }
    if (!ok) units[u++] = REPLACEMENT;
    else if (point < 0x10000) units[u++] = point;
    else {
      units[u++] = 0xd800 | ((point - 0x10000) >> 10);
      units[u++] = 0xdc00 | ((point - 0x10000) & 0x3ff);
    }
  }
  return text + applyFn(fromCharCode, null, new Uint16ArrayCtor(store, 0, u));
}

/** The payload's JSON text from what the server gave: the text, or its parts in order. */
export function payloadText(given: string | (string | Uint8Array)[]): string {
  if (!isArray(given)) return given;
  let text = '';
  for (let i = 0; i < given.length; i++) {
    const part = given[i];
    text += typeof part === 'string' ? part : utf8Text(part as Uint8Array);
  }
  return text;
}
