import { z } from 'zod';
import type { Problem } from './checks.ts';
import type { CodeBlock } from './codegen.ts';
import type { IsolatePool } from './isolate-pool.ts';

/**
 * Compiles each piece of user code on its own, as the function body or expression it becomes,
 * with the Function constructor inside an isolate (nothing is run). A piece that does not parse
 * alone — or that would reach outside its braces — is reported with the component that owns it.
 */
const CHECKER = `
  const blocks = JSON.parse($0);
  const AsyncFunction = (async () => {}).constructor;
  const problems = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    try {
      if (b.form === 'expression') new Function('"use strict";\\nreturn (\\n' + b.text + '\\n);');
      else if (b.form === 'async-body') new AsyncFunction(...b.params, '"use strict";' + b.text);
      else new Function(...b.params, '"use strict";' + b.text);
    } catch (error) {
      problems.push([i, String(error && error.name) + ': ' + String(error && error.message)]);
    }
  }
  return JSON.stringify(problems);
`;

const problemsSchema = z.array(z.tuple([z.number(), z.string()]));

function readProblems(value: unknown): [number, string][] {
  if (typeof value !== 'string') return [];
  const parsed = problemsSchema.safeParse(JSON.parse(value));
  return parsed.success ? parsed.data : [];
}

/** The line (1-based, in the user's code) of a syntax error, found by compiling the piece as a script. */
async function lineOf(pool: IsolatePool, block: CodeBlock, memoryMiB: number): Promise<number | undefined> {
  const lease = await pool.acquire(memoryMiB);
  try {
    const wrapped =
      block.form === 'expression'
        ? `(\n${block.text}\n);`
        : `(${block.form === 'async-body' ? 'async ' : ''}function () {${block.text}});`;
    await lease.isolate.compileScript(wrapped, { filename: 'code' });
    return undefined;
  } catch (error) {
    const m = /\[code:(\d+):\d+\]/.exec(error instanceof Error ? error.message : '');
    if (!m) return undefined;
    const line = Number(m[1]) - (block.form === 'expression' ? 1 : 0) - block.offset;
    return line >= 1 ? line : undefined;
  } finally {
    pool.release(lease, true);
  }
}

/** Syntax problems of the user code of a program, each naming its owner (and line when known). */
export async function checkSyntax(pool: IsolatePool, blocks: CodeBlock[], memoryMiB: number): Promise<Problem[]> {
  if (blocks.length === 0) return [];
  const lease = await pool.acquire(memoryMiB);
  let found: [number, string][] = [];
  let reusable = false;
  try {
    const context = await lease.isolate.createContext();
    try {
      const payload = JSON.stringify(blocks.map((b) => ({ form: b.form, params: b.params, text: b.text })));
      found = readProblems(await context.evalClosure(CHECKER, [payload], { timeout: 5000, result: { copy: true } }));
      reusable = true;
    } finally {
      if (!lease.isolate.isDisposed) context.release();
    }
  } finally {
    pool.release(lease, reusable);
  }
  const problems: Problem[] = [];
  for (const [index, message] of found) {
    const block = blocks[index];
    if (!block) continue;
    const line = await lineOf(pool, block, memoryMiB);
    problems.push({ component: block.owner, message: `${block.owner}: ${message}${line ? ` (line ${line} of its code)` : ''}` });
  }
  return problems;
}
