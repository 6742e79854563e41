import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Role } from '@gdb/shared/auth/roles';
import type { LoginAnswer } from '@gdb/shared/auth/session.schemas';
import type { InjectOptions } from 'fastify';
import { type BuiltApp, buildApp } from '../src/app.ts';
import type { User } from '../src/modules/users/users.service.ts';
import { type Config, loadConfig } from '../src/platform/config.ts';
import { buildUser, TEST_PASSWORD, type UserFields } from './factories.ts';
import { createTestDb } from './test-db.ts';

export { TEST_PASSWORD };

export const BASE = '/gdb-importer/v1';

// biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert on them
type AnyData = any;

export interface TestApp extends BuiltApp {
  dataDir: string;
  /** Calls the API below the base path and parses the envelope. */
  call(
    method: InjectOptions['method'],
    url: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{
    status: number;
    body: { code: number; message: string; data: AnyData };
  }>;
  /** Creates a user with the roles (password TEST_PASSWORD), through the users service (`buildUser`). */
  createUser(roles: Role[], fields?: Partial<UserFields & { isActive: boolean }>): Promise<User>;
  /** Signs in and answers the access token value. */
  login(userName: string, password?: string): Promise<string>;
  /** Creates a user with the roles and answers it with a token. */
  signedIn(roles: Role[]): Promise<{ user: User; token: string }>;
  close(): Promise<void>;
}

/** Builds the app on a fresh database and data folder; `close` removes both. */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-test-'));
  const testDb = await createTestDb();
  // Two-factor sign-in is off unless a test asks for it, so `login` answers a token for every role.
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { tfaRequired: 'none', ...overrides });
  const built = await buildApp(config, { db: testDb.db, web: false });
  await built.app.ready();

  const call: TestApp['call'] = async (method, url, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers['x-token'] = options.token;
    const res = await built.app.inject({
      method,
      url: `${BASE}${url}`,
      headers,
      ...(options.body !== undefined ? { payload: options.body as InjectOptions['payload'] } : {}),
    });
    let body: { code: number; message: string; data: AnyData };
    try {
      body = res.json();
    } catch {
      body = { code: -1, message: res.body, data: null };
    }
    return { status: res.statusCode, body };
  };

  const createUser: TestApp['createUser'] = async (roles, fields = {}) => {
    const { isActive: _, ...userFields } = fields;
    const user = await buildUser(built, roles, userFields);
    if (fields.isActive === false) {
      await testDb.db.kysely.updateTable('users').set({ is_active: false }).where('id', '=', user.id).execute();
    }
    return user;
  };

  const login: TestApp['login'] = async (userName, password = TEST_PASSWORD) => {
    const res = await call('POST', '/users/login', { body: { username: userName, password } });
    const data = res.body.data as LoginAnswer | null;
    if (res.status !== 200 || !data?.token) throw new Error(`login failed: ${res.status} ${res.body.message}`);
    return data.token.value;
  };

  return {
    ...built,
    dataDir,
    call,
    createUser,
    login,
    async signedIn(roles) {
      const user = await createUser(roles);
      return { user, token: await login(user.user_name) };
    },
    async close() {
      await built.app.close();
      await testDb.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
