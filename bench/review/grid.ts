// The review grid in Chromium: 20,000 rows with a problem drawn in ≤ 1 s, and a scroll through them
// at ≤ 16 ms a frame (a wheel's step of 120 px, and a jump of a screen of rows, each until painted).
import path from 'node:path';
import { report, sample, withBenchPage } from '../browser/harness.ts';

const ENTRY = path.resolve(import.meta.dirname, 'grid.page.tsx');

const held = await withBenchPage(ENTRY, async (bench) => {
  const render = await sample(bench, 'render', 7, 2);
  const frames: number[] = [];
  for (let i = 0; i < 120; i += 1) frames.push(await bench.call('scroll', i % 4 === 3 ? 480 : 120));
  const idle = await sample(bench, 'idle', 60, 5);
  console.log(`an idle frame (nothing to do) until painted: median ${idle.sort((a, b) => a - b)[30]?.toFixed(1)} ms`);
  return report([
    { name: 'draw 20,000 rows with a problem', samples: render, target: 1000 },
    { name: 'scroll frame', samples: frames, target: 16 },
  ]);
});
process.exitCode = held ? 0 : 1;
