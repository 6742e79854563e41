// Sends one upload to an app in a process of its own and prints what it cost as JSON: the answer's
// status and the growth of the process's resident memory at its peak while the request ran (the
// app's and this client's, which sends the body piece by piece as the connection takes it). What
// is measured is what the request holds: garbage is collected every 50 ms meanwhile, as memory
// pressure would have it (left to itself, V8 lets the database driver's discarded message buffers
// pile up to tens of MiB before a collection). The data sources name a data model that does not
// exist, so the checks that follow the upload end without reading the files back.
//   node --no-node-snapshot --expose-gc --import tsx packages/server/test/measure-upload.ts '[MiB, MiB, …]'
import { execFileSync } from 'node:child_process';
import type { DataSource } from '@gdb/shared/pipelines/pipeline.schemas';
import { listenLocal } from './live-kit.ts';
import { watchPeakRss } from './peak-rss.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { bodyEnd, fieldPart, fileHead, openUpload, partEnd } from './upload-client.ts';

export interface UploadCost {
  status: number;
  peakRssGrowthMiB: number;
}

const MiB = 1024 * 1024;
/** A quarter of a MiB of CSV rows, 8 bytes each. */
const ROWS = Buffer.from('R0001,1\n'.repeat(MiB / 4 / 8));

/** Sends files of the sizes given, in MiB, in one upload in a child process, and answers its cost. */
export function measureUpload(sizesMiB: readonly number[]): UploadCost {
  const out = execFileSync(
    process.execPath,
    ['--no-node-snapshot', '--expose-gc', '--import', 'tsx', import.meta.filename, JSON.stringify(sizesMiB)],
    { encoding: 'utf8', maxBuffer: 1024 * 1024, env: process.env },
  );
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
}

/** Sends one upload of files of the sizes given (a quarter of a MiB at a time) and answers its status. */
async function send(url: string, token: string, pipelineId: string, sizesMiB: readonly number[]): Promise<number> {
  const upload = openUpload(url, token);
  await upload.send(fieldPart('pipelineId', pipelineId));
  for (const [i, size] of sizesMiB.entries()) {
    await upload.send(fileHead(`source${i}`, `file${i}.csv`));
    for (let sent = 0; sent < size * MiB; sent += ROWS.length) await upload.send(ROWS);
    await upload.send(partEnd);
  }
  await upload.send(bodyEnd);
  return (await upload.finish()).status;
}

async function pipelineOf(t: TestApp, sources: number): Promise<string> {
  const dataSources = Array.from(
    { length: sources },
    (_, i): DataSource => ({
      dataSubKind: `source${i}`,
      connectorType: 'manual',
      dataFromMaster: false,
      contentType: 'csv',
      dataModel: '00000000-0000-4000-8000-000000000000',
    }),
  );
  return t.services.pipelines.create({ name: 'measured', isMaster: false, dataSources, dataSinks: [] });
}

async function main(argv: string[]): Promise<void> {
  const sizes: number[] = JSON.parse(argv[0] ?? '[]');
  const t = await createTestApp();
  try {
    const url = await listenLocal(t.app);
    const { token } = await t.signedIn(['super-admin']);
    const pipelineId = await pipelineOf(t, sizes.length);
    // A first small upload loads every module the request goes through.
    await send(url, token, pipelineId, [1]);
    await t.services.uploads.settled();
    // What the first upload left settles, then the garbage goes.
    await new Promise((resolve) => setTimeout(resolve, 500));
    globalThis.gc?.();
    const peak = await watchPeakRss();
    const collector = setInterval(() => globalThis.gc?.(), 50);
    const status = await send(url, token, pipelineId, sizes);
    clearInterval(collector);
    const cost: UploadCost = { status, peakRssGrowthMiB: await peak.stop() };
    await t.services.uploads.settled();
    console.log(JSON.stringify(cost));
  } finally {
    await t.close();
  }
}

if (process.argv[1] === import.meta.filename) await main(process.argv.slice(2));
