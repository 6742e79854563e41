import fs from 'node:fs/promises';
import path from 'node:path';
import { checkKey, type FileStore, inOrder, KEY, newKey, writeAsTheyCome } from './file-store.ts';

/** A new file under `root`, written under a temporary name until `finish` flushes it and renames it into place. */
interface TempFile {
  /** Writes these pieces in their order, as they are: joining them first would copy them into new memory. */
  write(pieces: readonly Uint8Array[]): Promise<void>;
  /** Flushes the file, moves it to its key and answers the key. */
  finish(): Promise<string>;
  /** Removes what was written (after a failure, `finish`'s included). */
  discard(): Promise<void>;
}

/** What is left of these pieces once their first `written` bytes are written. */
export function unwritten(pieces: readonly Uint8Array[], written: number): Uint8Array[] {
  let i = 0;
  let left = written;
  for (; i < pieces.length && left >= (pieces[i]?.byteLength ?? 0); i++) left -= pieces[i]?.byteLength ?? 0;
  const rest = pieces.slice(i);
  const first = rest[0];
  if (first && left > 0) rest[0] = first.subarray(left);
  return rest;
}

async function tempFile(root: string): Promise<TempFile> {
  const key = newKey();
  const target = path.join(root, key);
  const temp = `${target}.${process.pid}.tmp`;
  await fs.mkdir(path.dirname(target), { recursive: true });
  let handle: fs.FileHandle | undefined = await fs.open(temp, 'wx', 0o600);
  const close = async () => {
    const open = handle;
    handle = undefined;
    await open?.close();
  };
  return {
    async write(pieces) {
      for (let rest = pieces.filter((p) => p.byteLength > 0); handle && rest.length > 0; ) {
        const { bytesWritten } = await handle.writev(rest);
        if (bytesWritten === 0) throw new Error('The file could not be written.');
        rest = unwritten(rest, bytesWritten);
      }
    },
    async finish() {
      await handle?.sync();
      await close();
      await fs.rename(temp, target);
      return key;
    },
    async discard() {
      await close().catch(() => undefined);
      await fs.rm(temp, { force: true });
    },
  };
}

/**
 * A file's bytes, read with as few calls as its size allows (one, mostly). `fs.readFile` reads in
 * pieces of 512 KiB, each a call of its own that waits a turn of the event loop: 30 MB of checked
 * rows took 60-odd turns, seconds on a server busy with other requests.
 */
async function readWhole(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const bytes = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return at === size ? bytes : bytes.subarray(0, at);
  } finally {
    await handle.close();
  }
}

/** Files under `root`, written to a temporary name, flushed, then renamed into place. */
export function localFileStore(root: string): FileStore {
  async function putStream(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<string> {
    const file = await tempFile(root);
    try {
      await writeAsTheyCome(chunks, (batch) => file.write(batch));
      return await file.finish();
    } catch (error) {
      await file.discard();
      throw error;
    }
  }
  return {
    kind: 'local',
    put: (bytes) => putStream([bytes]),
    async putAll(files) {
      const keys: string[] = [];
      try {
        for (const bytes of files) keys.push(await putStream([bytes]));
        return keys;
      } catch (error) {
        await Promise.all(keys.map((key) => fs.rm(path.join(root, key), { force: true }).catch(() => undefined)));
        throw error;
      }
    },
    putStream,
    writer() {
      const steps = inOrder();
      let file: TempFile | undefined;
      steps.add(async () => {
        file = await tempFile(root);
      });
      const abort = async () => {
        await steps.settled().catch(() => undefined);
        await file?.discard();
      };
      return {
        write(bytes) {
          steps.add(async () => file?.write([bytes]));
        },
        async done() {
          try {
            await steps.settled();
            if (!file) throw new Error('The file was not opened.');
            return await file.finish();
          } catch (error) {
            await abort();
            throw error;
          }
        },
        abort,
      };
    },
    get: async (key) => readWhole(path.join(root, checkKey(key))),
    async delete(key) {
      await fs.rm(path.join(root, checkKey(key)), { force: true });
    },
    async keysStoredBefore(cutoff) {
      const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      const keys: string[] = [];
      for (const entry of entries) {
        // Files being written have a temporary name, which is no key.
        const key = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
        if (!entry.isFile() || !KEY.test(key)) continue;
        const stat = await fs.stat(path.join(root, key)).catch(() => null);
        if (stat && stat.mtime < cutoff) keys.push(key);
      }
      return keys;
    },
  };
}
