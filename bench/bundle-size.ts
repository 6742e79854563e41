// Measures the JavaScript the login page loads first (bench/first-load.ts).
// Run after `npm run build`: `npm run bench:bundle` (exit code 1 above the budget).
import { firstLoad, kb, total } from './first-load.ts';

const BUDGET_KB = 350;
const LOGIN_PAGE = 'src/features/account/LoginPage.tsx';

const rows = firstLoad(LOGIN_PAGE);
for (const r of rows) console.log(`  ${r.file.padEnd(44)} ${kb(r.raw).padStart(10)} ${kb(r.gzip).padStart(10)} gzip`);
const gzip = total(rows, 'gzip');
console.log(
  `login page first-load JavaScript: ${rows.length} files, ${kb(total(rows, 'raw'))} raw, ${kb(gzip)} gzip (budget ${BUDGET_KB} kB gzip)`,
);
process.exitCode = gzip <= BUDGET_KB * 1024 ? 0 : 1;
