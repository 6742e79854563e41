import {
  DEFAULT_SDK_CODE,
  type SdkFunction,
  type SdkListEntry,
  type SdkSaveBody,
  sdkModuleSchema,
} from '@gdb/shared/sdk/sdk.schemas';
import { isId } from '@gdb/shared/users/users.schemas';
import { z } from 'zod';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { versionFields } from '../../platform/db/versioned-row.ts';
import { conflict, notFound } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { RunLines } from '../../runtime/editor-tests.ts';
import { ACCESS_MESSAGES, type DocumentAccess, type ReferencedDocument } from '../access/access.service.ts';
import type { VersionsService } from '../versions/versions.service.ts';
import { type SdkRow, sdkRepo } from './sdk.repo.ts';
import { editorTools, type SdkTools, type ToolVersions } from './sdk-tools.ts';

const modulesSchema = z.array(sdkModuleSchema).catch([]);

function toFunction(row: SdkRow): SdkFunction {
  return {
    ...versionFields(row),
    functionName: row.function_name,
    jsCode: row.js_code,
    testPayload: row.test_payload,
    documentation: row.documentation,
    input: row.input,
    output: row.output,
    error: row.error,
    modules: modulesSchema.parse(row.modules),
  };
}

function toListEntry(row: SdkRow): SdkListEntry {
  const { jsCode: _code, testPayload: _payload, ...entry } = toFunction(row);
  return entry;
}

/** SDK functions: shared JavaScript helpers components call as `sdk.<functionName>(…)`. */
/** Who uses SDK functions: the component versions whose code lists one. */
export interface SdkFunctionUsers {
  usingSdkFunction(id: string): Promise<readonly { name: string; version: number }[]>;
}

/**
 * Where the editors' test runs are recorded and their lines go out live (the components module's
 * `testLogs`): an id already taken is refused.
 */
export interface TestRunRecords {
  testLogs(runId: string, caller: AuthContext, subject: { sdkFunctionId: string }): Promise<RunLines>;
}

/** An SDK function as the document access check sees it: its folder and badges. */
const accessed = (row: { folder_id: string | null; tags: SdkRow['tags'] }) => ({ folder: row.folder_id, tags: row.tags });

/** The version engine's write check (read-only, locked, badges, the locked-only rule) and who points at a version. */
type VersionReads = Pick<VersionsService, 'assertCanWrite'> & ToolVersions;

export function sdkService(
  ctx: AppContext,
  components: SdkFunctionUsers & TestRunRecords,
  access: DocumentAccess,
  versions: VersionReads,
  tools: SdkTools,
) {
  const repo = sdkRepo(ctx.db.kysely);

  async function load(id: string): Promise<SdkRow> {
    const row = isId(id) ? await repo.byId(id) : undefined;
    if (!row) throw notFound('Document not found');
    return row;
  }

  /** Refuses a change the version engine refuses (read-only, locked, badges, the locked-only rule). */
  async function assertCanChange(auth: AuthContext, row: SdkRow, action: 'edit' | 'delete'): Promise<void> {
    await versions.assertCanWrite(auth, 'sdk', row, action);
  }

  async function assertNameFree(name: string, familyId: string | null): Promise<void> {
    if (await repo.otherFamilyNamed(name, familyId)) throw conflict(`An SDK function named ${name} already exists.`);
  }

  /** One version the viewer may read, as stored. */
  async function readable(id: string, viewer: AuthContext): Promise<SdkRow> {
    const row = await load(id);
    await (await access(viewer)).assert('read', 'sdk', accessed(row), ACCESS_MESSAGES.read);
    return row;
  }

  return {
    ...editorTools({ readable, versions, tools, modules: (row) => modulesSchema.parse(row.modules) }),

    /** Every SDK function version the viewer may read, by name then version (without code). */
    async list(viewer: AuthContext): Promise<SdkListEntry[]> {
      const rows = await repo.list();
      const readable = await (await access(viewer)).filter('read', 'sdk', rows, accessed);
      return readable.map(toListEntry);
    },

    /** One SDK function version with its code, one the viewer may read. */
    async find(id: string, viewer: AuthContext): Promise<SdkFunction> {
      return toFunction(await readable(id, viewer));
    },

    /** The SDK function versions among these ids that exist, whoever asks (the runtime builds programs for nobody). */
    async byIds(ids: readonly string[]): Promise<SdkFunction[]> {
      return (await repo.byIds(ids.filter(isId))).map(toFunction);
    },

    /** The folder and badges of the SDK function versions among these ids that exist, for the read check of a component naming them. */
    async referenced(ids: readonly string[]): Promise<ReferencedDocument[]> {
      return (await repo.byIds(ids.filter(isId))).map((r) => ({ id: r.id, folder: r.folder_id, tags: r.tags }));
    },

    /** The newest version of the SDK function with this name, one the viewer may read. */
    async byName(name: string, viewer: AuthContext): Promise<SdkFunction> {
      const row = await repo.latestByName(name);
      if (!row) throw notFound(`SDK function ${name} not found.`);
      await (await access(viewer)).assert('read', 'sdk', accessed(row), ACCESS_MESSAGES.read);
      return toFunction(row);
    },

    /**
     * A test run's log lines sent on the live channel (`testLogs`, by the id the editor gave the
     * run) to the caller and super-admins; the run is recorded as the caller's, an id already taken
     * is refused ('This test run id is in use.').
     */
    testLogs: (runId: string, caller: AuthContext, fn: SdkFunction): Promise<RunLines> =>
      components.testLogs(runId, caller, { sdkFunctionId: fn._id }),

    /**
     * Creates an SDK function (version 1 of a new family) or saves a draft version; a name belongs
     * to one family, a save made on an older copy than the stored one is refused, and so is one the
     * badges of the function or of its folder (the one it is in, the one it moves to) refuse.
     */
    async save(auth: AuthContext, body: SdkSaveBody): Promise<SdkFunction> {
      const userId = auth.userId;
      const caller = await access(auth);
      const fields = {
        function_name: body.functionName,
        ...(body.jsCode !== undefined ? { js_code: body.jsCode } : {}),
        ...(body.testPayload !== undefined ? { test_payload: JSON.stringify(body.testPayload) } : {}),
        ...(body.documentation !== undefined ? { documentation: body.documentation } : {}),
        ...(body.input !== undefined ? { input: body.input } : {}),
        ...(body.output !== undefined ? { output: body.output } : {}),
        ...(body.error !== undefined ? { error: body.error } : {}),
        // Each module on the allow-list, installed, at the installed version: refused naming it otherwise.
        ...(body.modules !== undefined ? { modules: JSON.stringify(tools.modules.resolve(body.modules)) } : {}),
        ...(body.folder !== undefined ? { folder_id: body.folder } : {}),
      };
      if (!body._id) {
        await assertNameFree(body.functionName, null);
        await caller.assert('write', 'sdk', { folder: body.folder ?? null, tags: null }, ACCESS_MESSAGES.write);
        const id = newId();
        const row = await repo.insert({
          id,
          family_id: id,
          version: 1,
          folder_id: body.folder ?? null,
          js_code: DEFAULT_SDK_CODE,
          test_payload: '[]',
          ...fields,
          created_by: userId,
          updated_by: userId,
        });
        return toFunction(row);
      }
      const before = await load(body._id);
      await assertCanChange(auth, before, 'edit');
      if (body.folder != null && body.folder !== before.folder_id) {
        await caller.assert('write', 'sdk', { folder: body.folder, tags: null }, ACCESS_MESSAGES.write);
      }
      await assertNameFree(body.functionName, before.family_id);
      if (body.sys_version !== undefined && body.sys_version !== before.sys_version) {
        throw conflict('This SDK function was saved by someone else since you opened it; reload it.');
      }
      const row = await repo.update(before.id, before.sys_version, { ...fields, updated_by: userId });
      if (!row) throw conflict('This SDK function was saved by someone else since you opened it; reload it.');
      return toFunction(row);
    },

    /** Deletes an SDK function version that no component uses, that is not locked and that the badges let the caller change. */
    async remove(auth: AuthContext, id: string): Promise<{ _id: string }> {
      const row = await load(id);
      await assertCanChange(auth, row, 'delete');
      const users = await components.usingSdkFunction(id);
      if (users.length > 0) {
        const names = users.map((u) => `${u.name} v${u.version}`).join(', ');
        throw conflict(`This SDK function is used by ${names}.`);
      }
      await repo.remove(id);
      return { _id: id };
    },
  };
}

export type SdkService = ReturnType<typeof sdkService>;
