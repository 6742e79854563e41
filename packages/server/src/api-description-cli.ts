// Writes the API description as the server publishes it, without listening: the app is built on a
// throwaway data folder (embedded database) and asked for its description.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './platform/config.ts';

const out = process.argv[2];
if (!out) {
  console.error('Usage: api-description-cli <openapi.json>');
  process.exit(2);
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-openapi-'));
try {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const config = loadConfig({ ...env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const { app } = await buildApp(config, { web: false });
  try {
    await app.ready();
    fs.writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
  } finally {
    await app.close();
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
