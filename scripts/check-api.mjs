// Checks the API description as the server writes it (without listening): Redocly's recommended
// rules at zero errors, and a typed client generated from it (openapi-typescript) that compiles.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-api-check-'));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`check-api: ${path.basename(cmd)} failed; its files are in ${dir}`);
    process.exit(r.status ?? 1);
  }
}

const description = path.join(dir, 'openapi.json');
run(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'packages/server/src/api-description-cli.ts', description]);
run(bin('redocly'), ['lint', description, '--config', path.join(root, 'redocly.yaml'), '--format', 'summary']);
run(bin('openapi-typescript'), [description, '--output', path.join(dir, 'api.d.ts')]);

// A tiny client: the signed-in user's path, a sign-in body, its answer and an error envelope by type.
const { paths } = JSON.parse(fs.readFileSync(description, 'utf8'));
const infoPath = Object.keys(paths).find((p) => p.endsWith('/users/info'));
fs.writeFileSync(
  path.join(dir, 'client.ts'),
  `import type { operations, paths } from './api';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;

export const route: keyof paths = ${JSON.stringify(infoPath)};
export const body: operations['login']['requestBody']['content']['application/json'] = { username: 'ada', password: 'secret' };
export function accessToken(answer: Json<operations['login']['responses'][200]>): string | null {
  return answer.data.token?.value ?? null;
}
export const refused: Json<operations['getCurrentUser']['responses'][401]> = { code: 50008, message: 'Authentication required.', data: null };
export function issues(answer: Json<operations['saveUser']['responses'][422]>): string[] {
  return (answer.data?.issues ?? []).map((issue) => \`\${issue.path}: \${issue.message}\`);
}
`,
);
fs.writeFileSync(
  path.join(dir, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      module: 'ESNext',
      moduleResolution: 'Bundler',
      target: 'ES2023',
      types: [],
    },
    files: ['client.ts', 'api.d.ts'],
  }),
);
run(bin('tsc'), ['-p', path.join(dir, 'tsconfig.json')]);
fs.rmSync(dir, { recursive: true, force: true });
console.log('check-api: the description lints and its generated client compiles.');
