import { ajaxRuleIssue } from '@gdb/shared/schemas/form-checks';
import { schemaRuleIssue } from '@gdb/shared/schemas/schema-check';
import type { SchemaByName, SchemaDocument, SchemaListEntry, SchemaSaveBody } from '@gdb/shared/schemas/schemas.schemas';
import { isSystemSchemaName } from '@gdb/shared/schemas/system-schemas';
import { isId } from '@gdb/shared/users/users.schemas';
import { VERSION_MESSAGES } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/transaction.ts';
import { versionFields } from '../../platform/db/versioned-row.ts';
import { badRequest, conflict, notFound } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { schemaRefPaths } from '../../runtime/graph.ts';
import {
  ACCESS_MESSAGES,
  assertReferencesReadable,
  type CallerAccess,
  type DocumentAccess,
  type Reference,
  type ReferencedDocument,
} from '../access/access.service.ts';
import type { VersionsService } from '../versions/versions.service.ts';
import { modelBoundsIssue } from './model-bounds.ts';
import { lockedSchemaCache } from './schema-cache.ts';
import { type SchemaRow, schemasRepo } from './schemas.repo.ts';

/**
 * A data model version as answered; with the caller (null: read for the server itself),
 * `write_access` also says whether they may change it (the system data models are read-only but to super-admins).
 */
function toDocument(row: SchemaRow, viewer: AuthContext | null): SchemaDocument {
  const fields = versionFields(row);
  const closed = viewer !== null && isSystemSchemaName(row.name) && !viewer.roles.includes('super-admin');
  return { ...fields, write_access: fields.write_access && !closed, name: row.name, jsonSchema: row.json_schema };
}

const cannotLoad = (what: string) => notFound(`Cannot load schema ${what} from server`);

/** A data model as the document access check sees it: its folder and badges. */
const accessed = (row: { folder_id: string | null; tags: SchemaRow['tags'] }) => ({ folder: row.folder_id, tags: row.tags });

/**
 * Refuses (400, the rule's message) a JSON schema that breaks a node rule of the editor, or whose
 * form `ajax` rule asks anything but a listed check service with a GET; `issues` says where.
 */
function assertNodeRules(jsonSchema: Record<string, unknown>, formCheckUrls: readonly string[]): void {
  const issue = schemaRuleIssue(jsonSchema) ?? ajaxRuleIssue(jsonSchema, formCheckUrls);
  if (issue) throw badRequest(issue.message, [issue]);
}

/** Refuses (403, naming the `$ref`'s place and id) a JSON schema naming a data model the caller may not read. */
async function assertRefsReadable(
  repo: ReturnType<typeof schemasRepo>,
  caller: CallerAccess,
  jsonSchema: Record<string, unknown>,
): Promise<void> {
  const refs = schemaRefPaths(jsonSchema).map((r): Reference => ({ ...r, kind: 'schema' }));
  if (refs.length === 0) return;
  const rows = await repo.heldByIds([...new Set(refs.map((r) => r.id))]);
  const found = new Map(rows.map((r) => [r.id, { id: r.id, folder: r.folder_id, tags: r.tags }]));
  await assertReferencesReadable(caller, refs, found);
}

/** Refuses (400) a JSON schema past a bound of `SCHEMA_MAX_*` (the message names the setting) or breaking the node rules. */
function assertStorable(jsonSchema: Record<string, unknown>, config: AppContext['config']): void {
  const issue = modelBoundsIssue(jsonSchema, config.schemaBounds);
  if (issue) throw badRequest(issue.message, [issue]);
  assertNodeRules(jsonSchema, config.formCheckUrls);
}

/** A new data model: version 1 of a new family. */
interface NewSchema {
  name: string;
  jsonSchema: Record<string, unknown>;
  folder?: string | null;
  userId?: string | null;
  /** Stored locked (production) at once: demo content. */
  locked?: boolean;
}

/** Data models (docs/product.md §18.2): the editor's calls, and the runtime's reads; versions go through the engine. */
export function schemasService(ctx: AppContext, versions: VersionsService, access: DocumentAccess) {
  const repo = schemasRepo(ctx.db.kysely);
  const cache = lockedSchemaCache();

  /** Refuses a name another family has; a family the caller may not read is not named (docs/decisions.md, "Answers name only what the caller reads"). */
  async function assertNameFree(auth: AuthContext, name: string, familyId: string | null): Promise<void> {
    const other = await repo.otherFamilyNamed(name, familyId);
    if (!other) return;
    const readable = await (await access(auth)).may('read', 'schema', accessed(other));
    throw conflict(readable ? `A data model named ${name} already exists.` : 'A data model with this name already exists.');
  }

  /** Stores a new data model as version 1 of a new family (its JSON schema checked already). */
  async function store(input: NewSchema) {
    const id = newId();
    const row = await repo.insert({
      id,
      family_id: id,
      version: 1,
      folder_id: input.folder ?? null,
      name: input.name,
      json_schema: JSON.stringify(input.jsonSchema),
      created_by: input.userId ?? null,
      updated_by: input.userId ?? null,
      ...(input.locked ? { v_locked: true } : {}),
    });
    return toDocument(row, null);
  }

  /** Saves a draft's full body: it must carry `_id`, `version` and the `sys_version` it was read at. */
  async function saveDraft(auth: AuthContext, body: SchemaSaveBody & { _id: string }): Promise<SchemaDocument> {
    if (body.version === undefined) throw badRequest(VERSION_MESSAGES.missingVersion);
    if (body.sys_version === undefined) throw badRequest(VERSION_MESSAGES.missingSysVersion);
    const current = await versions.load('schema', body._id);
    await assertNameFree(auth, body.name, current.family_id);
    await assertRefsReadable(repo, await access(auth), body.jsonSchema);
    if (body.folder !== undefined && body.folder !== current.folder_id) {
      await (await access(auth)).assert('write', 'schema', { folder: body.folder, tags: null }, ACCESS_MESSAGES.write);
    }
    const row = await versions.saveDraft('schema', auth, body._id, body.sys_version, {
      name: body.name,
      json_schema: JSON.stringify(body.jsonSchema),
      ...(body.folder !== undefined ? { folder_id: body.folder } : {}),
    });
    return toDocument(row as unknown as SchemaRow, auth);
  }

  return {
    /** Stores a new data model as version 1 of a new family, if its JSON schema keeps the node rules. */
    async create(input: NewSchema) {
      assertStorable(input.jsonSchema, ctx.config);
      return store(input);
    },

    /** One data model version as this caller sees it, or 'Cannot load schema {id} from server'. */
    async find(id: string, viewer: AuthContext): Promise<SchemaDocument> {
      const row = isId(id) ? await repo.byId(id) : undefined;
      if (!row) throw cannotLoad(id);
      await (await access(viewer)).assert('read', 'schema', accessed(row), ACCESS_MESSAGES.read);
      return toDocument(row, viewer);
    },

    /** The data model versions among these ids that exist and the viewer may read, in the order asked, read from the database. */
    async many(ids: readonly string[], viewer: AuthContext): Promise<SchemaDocument[]> {
      const rows = await repo.byIds(ids.filter(isId));
      const readable = await (await access(viewer)).filter('read', 'schema', rows, accessed);
      const byId = new Map(readable.map((r) => [r.id, toDocument(r, viewer)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /**
     * The versions among these ids that exist (unknown ids left out), for the runtime and the
     * upload check: locked ones from the cache (their name and JSON schema never change).
     */
    async byIds(ids: readonly string[]): Promise<SchemaDocument[]> {
      const cached = ids.flatMap((id) => cache.get(id) ?? []);
      const rest = ids.filter((id) => isId(id) && !cache.get(id));
      return [...cached, ...(await repo.byIds(rest)).map((r) => cache.keep(toDocument(r, null)))];
    },

    /** The version a name reads (the newest locked, else the newest), or 'Cannot load schema {name} from server'. */
    async byName(name: string, viewer: AuthContext): Promise<SchemaByName> {
      const row = await repo.byName(name);
      if (!row) throw cannotLoad(name);
      await (await access(viewer)).assert('read', 'schema', accessed(row), ACCESS_MESSAGES.read);
      return { _id: row.id, name: row.name, version: row.version, jsonSchema: row.json_schema };
    },

    /** Every version the caller may read, by name ignoring case, for pickers. */
    async list(viewer: AuthContext): Promise<SchemaListEntry[]> {
      const entry = ({ id, family_id, name, version, v_locked, folder_id }: Awaited<ReturnType<typeof repo.list>>[number]) => ({
        _id: id,
        familyId: family_id,
        name,
        version,
        vLocked: v_locked,
        folder: folder_id,
      });
      return (await (await access(viewer)).filter('read', 'schema', await repo.list(), accessed)).map(entry);
    },

    /** Creates a data model (version 1), or saves a draft refusing a save made on an older copy (409). */
    async save(auth: AuthContext, body: SchemaSaveBody): Promise<SchemaDocument> {
      assertStorable(body.jsonSchema, ctx.config);
      if (body._id) return saveDraft(auth, { ...body, _id: body._id });
      if (body.sys_version !== undefined) throw badRequest(VERSION_MESSAGES.missingId);
      await assertNameFree(auth, body.name, null);
      await (await access(auth)).assert('write', 'schema', { folder: body.folder ?? null, tags: null }, ACCESS_MESSAGES.write);
      await assertRefsReadable(repo, await access(auth), body.jsonSchema);
      return store({ name: body.name, jsonSchema: body.jsonSchema, folder: body.folder ?? null, userId: auth.userId });
    },

    /** Deletes a draft version nothing points at. */
    async remove(auth: AuthContext, id: string): Promise<{ _id: string }> {
      await versions.remove('schema', auth, id);
      return { _id: id };
    },

    /**
     * The folder and badges of the versions among these ids that exist, for the read check of a
     * document that names them; inside `trx`, each is held until it ends, so that a save naming
     * them and a delete of one cannot both succeed.
     */
    async referenced(trx: Executor, ids: readonly string[]): Promise<ReferencedDocument[]> {
      const rows = await schemasRepo(trx).heldByIds(ids.filter(isId));
      return rows.map((r) => ({ id: r.id, folder: r.folder_id, tags: r.tags }));
    },

    /** Empties this server's cache of locked versions. */
    clearCache: () => ({ cleared: cache.clear() }),
  };
}

export type SchemasService = ReturnType<typeof schemasService>;
