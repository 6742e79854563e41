// Child process of the live benchmark (PostgreSQL): writes log lines through its own connection,
// as another server instance would. Started by run.ts with the plan as JSON in argv[2].
import pg from 'pg';
import { type LineRow, runWriter, type WriterPlan } from './writer-loop.ts';

const url = process.env.BENCH_DATABASE_URL;
const planText = process.argv[2];
if (!url || !planText) throw new Error('writer: BENCH_DATABASE_URL and a plan are required');
const plan: WriterPlan = JSON.parse(planText);

const client = new pg.Client({ connectionString: url, application_name: 'bench-writer' });
await client.connect();

async function insert(rows: LineRow[]) {
  const values: string[] = [];
  const params: string[] = [];
  for (const r of rows) {
    params.push(r.message, r.import_id);
    values.push(`('info', $${params.length - 1}, $${params.length}::uuid)`);
  }
  await client.query(`insert into logs (level, message, import_id) values ${values.join(', ')}`, params);
}

const result = await runWriter(plan, insert);
await client.end();
process.send?.({ type: 'writer-done', result });
