// The component schematic in Chromium: a workflow of 200 instances and 300 links is laid out and
// drawn (fitted, painted) in ≤ 1.5 s.
import path from 'node:path';
import { report, sample, withBenchPage } from '../browser/harness.ts';

const ENTRY = path.resolve(import.meta.dirname, 'schematic.page.tsx');

const held = await withBenchPage(ENTRY, async (bench) => {
  const render = await sample(bench, 'render', 5, 1);
  return report([{ name: 'lay out and draw 200 instances, 300 links', samples: render, target: 1500 }]);
});
process.exitCode = held ? 0 : 1;
