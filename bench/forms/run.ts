// The dynamic forms in Chromium: a form of 300 fields first renders in ≤ 300 ms, and a keystroke in
// one of its fields is validated and painted within a frame (≤ 16 ms).
import path from 'node:path';
import { report, sample, withBenchPage } from '../browser/harness.ts';

const ENTRY = path.resolve(import.meta.dirname, 'forms.page.tsx');

const held = await withBenchPage(ENTRY, async (bench) => {
  const render = await sample(bench, 'render', 9, 2);
  const keys = await sample(bench, 'keystroke', 100, 10);
  return report([
    { name: 'first render of a form of 300 fields', samples: render, target: 300 },
    { name: 'keystroke re-validated and painted', samples: keys, target: 16 },
  ]);
});
process.exitCode = held ? 0 : 1;
