import type { DataSink } from '@gdb/shared/pipelines/pipeline.schemas';
import type { FileStore } from '../../platform/files/file-store.ts';
import { csvLines } from './sink-files.ts';

/** Bytes of a piece of CSV file the sandbox hands over while it writes the rest. */
export const CSV_PIECE_BYTES = 2 * 1024 * 1024;

/**
 * A CSV file a sandbox writes, stored piece by piece as the pieces come, while the next ones are
 * being written: each is checked (`csvLines`, the first starting with the header line) before it
 * is written, and the file is kept only when every piece passed.
 */
function csvUpload(files: Pick<FileStore, 'writer'>) {
  const writer = files.writer();
  let width: number | null = null;
  let records = 0;
  let size = 0;
  let passed = true;
  const add = (bytes: Uint8Array) => {
    if (!passed || bytes.length === 0) return;
    const lines = csvLines(bytes, width);
    if (lines === null) {
      passed = false;
      return;
    }
    records += width === null ? lines.count - 1 : lines.count;
    width = lines.width;
    size += bytes.length;
    writer.write(bytes);
  };
  return {
    add,
    /** Adds the last piece: the stored file's key, records and size, or null (nothing stored) when a piece did not pass. */
    async finish(last: Uint8Array): Promise<{ key: string; rowCount: number; size: number } | null> {
      add(last);
      if (!passed || width === null) {
        await writer.abort();
        return null;
      }
      return { key: await writer.done(), rowCount: records, size };
    },
    /** Leaves nothing stored of a file not finished (no effect on one that was). */
    abort: () => writer.abort(),
  };
}

export type CsvUpload = ReturnType<typeof csvUpload>;

/** The CSV files of one run, by output port, each started by its first piece. */
export function csvUploads(files: Pick<FileStore, 'writer'>) {
  const byPort = new Map<string, CsvUpload>();
  return {
    /** The file of a port, started now if it was not. */
    of(port: string): CsvUpload {
      const upload = byPort.get(port) ?? csvUpload(files);
      byPort.set(port, upload);
      return upload;
    },
    /** Leaves nothing of the files not stored whole (a failed run, a port the answer did not name). */
    abortAll: () => Promise.all([...byPort.values()].map((upload) => upload.abort())),
  };
}

export type CsvUploads = ReturnType<typeof csvUploads>;

/** Output ports whose every data sink writes a CSV file and nothing else: the sandbox may write that file. */
export function csvOnlyPorts(sinks: readonly DataSink[]): string[] {
  const ports = new Set(sinks.map((s) => s.name));
  for (const sink of sinks) if (sink.format !== 'CSV' || sink.target) ports.delete(sink.name);
  return [...ports];
}
