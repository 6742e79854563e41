// Measures the JavaScript the Components page loads before its editor opens (the entry chunk, the
// page's chunk and what they import statically, gzipped at level 9) against the Pipelines page,
// whose screen is an explorer and a form: the Components page must stay within 1.5× of it, the
// code editor, the schematic (React Flow, elkjs) and the test section's editors loading later.
// Run after `npm run build`: `npm run bench:page-size` (exit code 1 above the ratio).
import { firstLoad, kb, total } from './first-load.ts';

const MAX_RATIO = 1.5;
const PAGE = 'src/features/components/ComponentEditorPage.tsx';
const EXPLORER_PAGE = 'src/features/pipelines/PipelinesPage.tsx';

const components = firstLoad(PAGE);
const explorer = firstLoad(EXPLORER_PAGE);
const heavy = components.flatMap((f) => f.modules).filter((m) => /@codemirror|elkjs|@xyflow/.test(m));
const ratio = total(components, 'gzip') / total(explorer, 'gzip');
console.log(`Pipelines page first load: ${explorer.length} files, ${kb(total(explorer, 'gzip'))} gzip`);
console.log(`Components page first load: ${components.length} files, ${kb(total(components, 'gzip'))} gzip`);
console.log(
  `ratio ${ratio.toFixed(2)} (at most ${MAX_RATIO}); editor, schematic or layout in it: ${heavy.length === 0 ? 'none' : heavy.join(', ')}`,
);
process.exitCode = ratio <= MAX_RATIO && heavy.length === 0 ? 0 : 1;
