import { ParseError } from '../limits.ts';

// The parts of a ZIP archive a workbook reader needs: where each entry's data starts and where it
// must end. The sizes the headers claim are never trusted for memory: an entry's data is bounded by
// the next thing in the file (another entry or the central directory), and inflating it is counted
// on what it produces (see inflate.ts).

/** One entry of the archive, as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  /** Where its data starts in the file (after its local header). */
  start: number;
  /** Where its data must end at the latest: the next entry's header or the central directory. */
  end: number;
  /** The compressed size the central directory claims (used only for stored entries, within `end`). */
  claimedSize: number;
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const FULL32 = 0xffffffff;

const damaged = (what: string) => new ParseError(`The workbook is not a readable archive (${what}).`);

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function u64(v: DataView, at: number): number {
  return v.getUint32(at, true) + v.getUint32(at + 4, true) * 2 ** 32;
}

/** The offset of the end-of-central-directory record: the last one, within its comment's reach. */
function findEnd(v: DataView): number {
  const lowest = Math.max(0, v.byteLength - 22 - 0xffff);
  for (let at = v.byteLength - 22; at >= lowest; at--) {
    if (v.getUint32(at, true) === EOCD) return at;
  }
  throw damaged('no central directory');
}

/** Where the central directory starts and how many entries it holds (ZIP64 archives included). */
function directoryOf(v: DataView): { offset: number; count: number; end: number } {
  const eocd = findEnd(v);
  let count = v.getUint16(eocd + 10, true);
  let offset = v.getUint32(eocd + 16, true);
  const locator = eocd - 20;
  if ((offset === FULL32 || count === 0xffff) && locator >= 0 && v.getUint32(locator, true) === EOCD64_LOCATOR) {
    const record = u64(v, locator + 8);
    if (record + 56 > v.byteLength || v.getUint32(record, true) !== EOCD64) throw damaged('bad ZIP64 record');
    count = u64(v, record + 32);
    offset = u64(v, record + 48);
    return { offset, count, end: record };
  }
  return { offset, count, end: eocd };
}

/** The ZIP64 extended sizes and offset of a central directory entry, where its fields are full. */
function zip64Fields(v: DataView, at: number, length: number, wanted: { size: boolean; offset: boolean }) {
  const out = { size: -1, offset: -1 };
  for (let p = at; p + 4 <= at + length; ) {
    const id = v.getUint16(p, true);
    const size = v.getUint16(p + 2, true);
    if (id === ZIP64_EXTRA) {
      let q = p + 4;
      // The fields present are the full ones, in this order: original size, compressed size, offset.
      if (wanted.size) q += 8;
      if (wanted.size && q + 8 <= p + 4 + size) {
        out.size = u64(v, q);
        q += 8;
      }
      if (wanted.offset && q + 8 <= p + 4 + size) out.offset = u64(v, q);
    }
    p += 4 + size;
  }
  return out;
}

const decoder = new TextDecoder();

/** The archive's entries by name (as written, without a leading slash), read from its central directory. */
export function openZip(bytes: Uint8Array): Map<string, ZipEntry> {
  const v = view(bytes);
  if (v.byteLength < 22) throw damaged('too short');
  const dir = directoryOf(v);
  const headers: { name: string; method: number; local: number; claimedSize: number }[] = [];
  let at = dir.offset;
  for (let i = 0; i < dir.count; i++) {
    if (at + 46 > v.byteLength || v.getUint32(at, true) !== CENTRAL) throw damaged('bad central directory');
    const nameLength = v.getUint16(at + 28, true);
    const extraLength = v.getUint16(at + 30, true);
    let claimedSize = v.getUint32(at + 20, true);
    let local = v.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (claimedSize === FULL32 || local === FULL32) {
      const wide = zip64Fields(v, at + 46 + nameLength, extraLength, { size: claimedSize === FULL32, offset: local === FULL32 });
      if (wide.size >= 0) claimedSize = wide.size;
      if (wide.offset >= 0) local = wide.offset;
    }
    headers.push({ name: name.replace(/^\/+/, ''), method: v.getUint16(at + 10, true), local, claimedSize });
    at += 46 + nameLength + extraLength + v.getUint16(at + 32, true);
  }
  return entriesOf(bytes, v, headers, dir.offset);
}

/** Each entry's data bounds, from its local header to the next header in the file. */
function entriesOf(
  bytes: Uint8Array,
  v: DataView,
  headers: { name: string; method: number; local: number; claimedSize: number }[],
  directory: number,
): Map<string, ZipEntry> {
  const starts = [...new Set([...headers.map((h) => h.local), directory])].sort((a, b) => a - b);
  const entries = new Map<string, ZipEntry>();
  for (const h of headers) {
    if (h.local + 30 > bytes.length || v.getUint32(h.local, true) !== LOCAL) throw damaged(`bad header for ${h.name}`);
    const start = h.local + 30 + v.getUint16(h.local + 26, true) + v.getUint16(h.local + 28, true);
    const next = starts[firstAbove(starts, h.local)] ?? bytes.length;
    entries.set(h.name, { name: h.name, method: h.method, start, end: Math.min(next, bytes.length), claimedSize: h.claimedSize });
  }
  return entries;
}

/** The index of the first value above `value` in an ascending list (its length when none is). */
function firstAbove(sorted: number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((sorted[mid] ?? 0) > value) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** An entry by its part name, ignoring case (part names in a package are case-insensitive). */
export function findEntry(entries: Map<string, ZipEntry>, name: string): ZipEntry | undefined {
  const wanted = name.replace(/^\/+/, '');
  const exact = entries.get(wanted);
  if (exact) return exact;
  const lower = wanted.toLowerCase();
  for (const [key, entry] of entries) if (key.toLowerCase() === lower) return entry;
  return undefined;
}
