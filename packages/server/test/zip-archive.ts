import zlib from 'node:zlib';

// ZIP archives and deflate streams built byte by byte, for tests of readers that must not trust
// what an archive claims: sizes faked in both headers, streamed entries, stored entries.

export interface ArchiveEntry {
  name: string;
  /** The entry's content (before compression). */
  content: Uint8Array | string;
  /** Its compressed data when built by hand (see {@link deflateOfRepeat}); deflated from `content` otherwise. */
  compressed?: Uint8Array;
  /** 8 deflated (the default), 0 stored. */
  method?: 0 | 8;
  /** Sizes both headers claim instead of the real ones. */
  claimedSize?: number;
  /** Written as streamed: sizes 0 in both headers, the real ones in a data descriptor after the data. */
  streamed?: boolean;
}

const text = (s: Uint8Array | string) => (typeof s === 'string' ? new TextEncoder().encode(s) : s);

function header(size: number): { bytes: Uint8Array; view: DataView } {
  const bytes = new Uint8Array(size);
  return { bytes, view: new DataView(bytes.buffer) };
}

/** A ZIP archive of the entries, in their order. */
export function zipArchive(entries: readonly ArchiveEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const content = text(entry.content);
    const method = entry.method ?? 8;
    const data = entry.compressed ?? (method === 8 ? zlib.deflateRawSync(content) : content);
    const name = new TextEncoder().encode(entry.name);
    const crc = entry.compressed ? 0 : zlib.crc32(content);
    const claimed = entry.streamed
      ? { c: 0, u: 0 }
      : { c: entry.claimedSize ?? data.length, u: entry.claimedSize ?? content.length };
    const flags = entry.streamed ? 8 : 0;
    const local = header(30);
    local.view.setUint32(0, 0x04034b50, true);
    local.view.setUint16(4, 20, true);
    local.view.setUint16(6, flags, true);
    local.view.setUint16(8, method, true);
    local.view.setUint32(14, entry.streamed ? 0 : crc, true);
    local.view.setUint32(18, claimed.c, true);
    local.view.setUint32(22, claimed.u, true);
    local.view.setUint16(26, name.length, true);
    const parts0 = [local.bytes, name, data];
    if (entry.streamed) {
      const descriptor = header(16);
      descriptor.view.setUint32(0, 0x08074b50, true);
      descriptor.view.setUint32(4, crc, true);
      descriptor.view.setUint32(8, data.length, true);
      descriptor.view.setUint32(12, content.length, true);
      parts0.push(descriptor.bytes);
    }
    const dir = header(46);
    dir.view.setUint32(0, 0x02014b50, true);
    dir.view.setUint16(4, 20, true);
    dir.view.setUint16(6, 20, true);
    dir.view.setUint16(8, flags, true);
    dir.view.setUint16(10, method, true);
    dir.view.setUint32(16, entry.streamed ? 0 : crc, true);
    dir.view.setUint32(20, claimed.c, true);
    dir.view.setUint32(24, claimed.u, true);
    dir.view.setUint16(28, name.length, true);
    dir.view.setUint32(42, offset, true);
    central.push(dir.bytes, name);
    parts.push(...parts0);
    offset += parts0.reduce((n, p) => n + p.length, 0);
  }
  const directorySize = central.reduce((n, p) => n + p.length, 0);
  const end = header(22);
  end.view.setUint32(0, 0x06054b50, true);
  end.view.setUint16(8, entries.length, true);
  end.view.setUint16(10, entries.length, true);
  end.view.setUint32(12, directorySize, true);
  end.view.setUint32(16, offset, true);
  return Buffer.concat([...parts, ...central, end.bytes]);
}

/** Writes bits least significant first, as deflate does, Huffman codes most significant first. */
class BitWriter {
  private readonly parts: Uint8Array[] = [];
  private bytes: number[] = [];
  private bits = 0;
  count = 0;

  put(value: number, count: number): void {
    for (let i = 0; i < count; i++) {
      this.bits |= ((value >> i) & 1) << this.count;
      if (++this.count === 8) {
        this.bytes.push(this.bits);
        this.bits = 0;
        this.count = 0;
      }
    }
  }

  code(code: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) this.put((code >> i) & 1, 1);
  }

  literal(byte: number): void {
    if (byte < 144) this.code(0x30 + byte, 8);
    else this.code(0x190 + byte - 144, 9);
  }

  /** Whole bytes, written where the bits so far end on a byte boundary. */
  raw(bytes: Uint8Array): void {
    this.parts.push(Uint8Array.from(this.bytes), bytes);
    this.bytes = [];
  }

  done(): Uint8Array {
    if (this.count > 0) this.bytes.push(this.bits);
    return Buffer.concat([...this.parts, Uint8Array.from(this.bytes)]);
  }
}

/** A copy of the longest match (258 bytes, distance 1): 13 bits. */
function repeatMatch(out: BitWriter): void {
  out.code(0xc0 + 5, 8); // length 258 (symbol 285)
  out.code(0, 5); // distance 1
}

/** `groups` runs of eight matches, written as bytes: eight matches are 104 bits, 13 whole bytes. */
function matchGroups(groups: number): Uint8Array {
  const one = new BitWriter();
  for (let i = 0; i < 8; i++) repeatMatch(one);
  const pattern = one.done();
  const bytes = new Uint8Array(groups * 13);
  if (groups === 0) return bytes;
  bytes.set(pattern);
  for (let filled = 13; filled < bytes.length; filled *= 2) bytes.copyWithin(filled, 0, Math.min(filled, bytes.length - filled));
  return bytes;
}

/**
 * A raw deflate stream of `prefix`, then `count` copies of one ASCII character, then `suffix`, in
 * one fixed-Huffman block: each run of 258 copies is 13 bits, so a gibibyte compresses to ~6.5 MiB.
 */
export function deflateOfRepeat(prefix: string, char: string, count: number, suffix: string): Uint8Array {
  const out = new BitWriter();
  out.put(1, 1); // last block
  out.put(1, 2); // fixed Huffman codes
  for (const byte of new TextEncoder().encode(prefix)) out.literal(byte);
  out.literal(char.charCodeAt(0));
  let matches = Math.floor((count - 1) / 258);
  // Matches one by one up to a byte boundary, then in groups of eight written as whole bytes.
  for (; matches > 0 && out.count !== 0; matches--) repeatMatch(out);
  const groups = Math.floor(matches / 8);
  out.raw(matchGroups(groups));
  for (matches -= groups * 8; matches > 0; matches--) repeatMatch(out);
  for (let left = (count - 1) % 258; left > 0; left--) out.literal(char.charCodeAt(0));
  for (const byte of new TextEncoder().encode(suffix)) out.literal(byte);
  out.code(0, 7); // end of block (symbol 256)
  return out.done();
}
