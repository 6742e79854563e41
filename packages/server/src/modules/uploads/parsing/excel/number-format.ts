import * as XLSX from '@e965/xlsx';

// What a number format makes of a cell's number: a date, a date-time, a time or a duration (as
// ISO text in the workbook's date system), or a number shown as the format writes it.

export type FormatKind = 'general' | 'number' | 'date' | 'datetime' | 'time' | 'elapsed';

export interface NumberFormat {
  code: string;
  kind: FormatKind;
}

export const GENERAL: NumberFormat = { code: 'General', kind: 'general' };

/** The built-in formats a style may name by id alone (the ones every application agrees on). */
const BUILT_IN: Record<number, string> = {
  0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%', 11: '0.00E+00',
  12: '# ?/?', 13: '# ??/??', 14: 'yyyy-mm-dd', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM', 20: 'h:mm', 21: 'h:mm:ss', 22: 'yyyy-mm-dd h:mm', 37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)', 39: '#,##0.00;(#,##0.00)', 40: '#,##0.00;[Red](#,##0.00)', 45: 'mm:ss',
  46: '[h]:mm:ss', 47: 'mm:ss.0', 48: '##0.0E+0', 49: '@',
}; // biome-ignore format: a table reads better on few lines

/** Ids of locale-dependent built-in date formats (East Asian calendars), read as dates. */
const LOCALE_DATES = new Set([27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** The format a style's number format id names, with the workbook's own formats (`<numFmt>`). */
export function formatOf(id: number, custom: ReadonlyMap<number, string>): NumberFormat {
  const code = custom.get(id) ?? BUILT_IN[id] ?? (LOCALE_DATES.has(id) ? 'yyyy-mm-dd' : 'General');
  return { code, kind: kindOf(code) };
}

/** The parts of a format code that are not instructions: quoted text, escaped and padding characters. */
const LITERALS = /"[^"]*"|\\.|_.|\*./g;
const BRACKETS = /\[([^\]]*)\]/g;
const ELAPSED = /^(h+|m+|s+)$/i;

/** What a format code makes of a number, judged on its first section (the one positive numbers take). */
export function kindOf(code: string): FormatKind {
  if (/^general$/i.test(code.trim())) return 'general';
  const section = code.replace(LITERALS, '').split(';')[0] ?? '';
  let elapsed = false;
  const plain = section.replace(BRACKETS, (_, inner: string) => {
    if (ELAPSED.test(inner)) elapsed = true;
    return ' ';
  });
  const letters = plain.replace(/AM\/PM|A\/P|general/gi, ' ').toLowerCase();
  // Digit placeholders make a number format; zeros after a point are also a time's fractions of a second.
  if (/[0#?]/.test(letters.replace(/\.0+/g, ''))) return 'number';
  if (!elapsed && !/[dmyhse]/.test(letters)) return 'number';
  const hasTime = elapsed || /[hs]/.test(letters) || minuteFollowsHour(letters);
  const hasDate = /[dye]/.test(letters) || monthsIn(letters);
  if (elapsed && !hasDate) return 'elapsed';
  if (hasDate && hasTime) return 'datetime';
  return hasDate ? 'date' : 'time';
}

/** Whether an `m` run of the code means minutes: after an hour or before seconds. */
function minuteFollowsHour(letters: string): boolean {
  return /h[^a-z]*m|m[^a-z]*s/.test(letters);
}

/** Whether an `m` run of the code means months: any run not read as minutes. */
function monthsIn(letters: string): boolean {
  const runs = letters.match(/m+/g) ?? [];
  const minutes = (letters.match(/h[^a-z]*m+|m+[^a-z]*s/g) ?? []).length;
  return runs.length > minutes;
}

const DAY_MS = 86_400_000;
/** The 1900 system counts a 29 February 1900 that never was (serial 60), as Lotus 1-2-3 did. */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);
/** 9999-12-31, the last day a sheet can show. */
const LAST_SERIAL = 2_958_465;

const two = (n: number) => String(n).padStart(2, '0');

function timeOf(seconds: number): string {
  return `${two(Math.floor(seconds / 3600) % 24)}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
}

/** A serial date number as ISO text of its kind, or undefined when no date can be shown for it. */
export function isoOfSerial(
  serial: number,
  kind: 'date' | 'datetime' | 'time' | 'elapsed',
  date1904: boolean,
): string | undefined {
  if (!Number.isFinite(serial) || serial < 0 || serial > LAST_SERIAL) return undefined;
  const totalSeconds = Math.round(serial * 86_400);
  if (kind === 'elapsed') {
    const hours = Math.floor(totalSeconds / 3600);
    return `${two(hours)}:${two(Math.floor(totalSeconds / 60) % 60)}:${two(totalSeconds % 60)}`;
  }
  const days = Math.floor(totalSeconds / 86_400);
  const seconds = totalSeconds - days * 86_400;
  if (kind === 'time') return timeOf(seconds);
  const epoch = date1904 ? EPOCH_1904 : days < 60 ? EPOCH_1900 + DAY_MS : EPOCH_1900;
  const day = new Date(epoch + days * DAY_MS).toISOString().slice(0, 10);
  return kind === 'date' ? day : `${day}T${timeOf(seconds)}`;
}

const PLAIN_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;

/** Text of a number as the General format shows it: no float noise, up to 15 significant digits. */
export function generalText(value: number, raw: string): string {
  // A plain decimal of at most 15 digits (what most cells hold) is shown as written.
  if (raw.length <= 16 && PLAIN_DECIMAL.test(raw) && raw.replace(/\D/g, '').length <= 15) return raw;
  if (Number.isInteger(value)) return Number.isSafeInteger(value) ? String(value) : raw;
  const text = String(Number(value.toPrecision(15)));
  return text.includes('e') ? formatted('General', value) : text;
}

/** A number as a format code writes it (`00123`, `15.5%`). */
export function formatted(code: string, value: number): string {
  try {
    return XLSX.SSF.format(code, value);
  } catch {
    // A code the formatter does not understand: the number as General shows it.
    return String(value);
  }
}
