import type { SchemaDocument } from '@gdb/shared/schemas/schemas.schemas';
import { isId } from '@gdb/shared/users/users.schemas';
import type { AppContext } from '../../platform/context.ts';
import { versionFields } from '../../platform/db/versioned-row.ts';
import { notFound } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { type SchemaRow, schemasRepo } from './schemas.repo.ts';

function toDocument(row: SchemaRow): SchemaDocument {
  return { ...versionFields(row), name: row.name, jsonSchema: row.json_schema };
}

/** Data models as the runtime reads them; the schema editor's calls build on this service. */
export function schemasService(ctx: AppContext) {
  const repo = schemasRepo(ctx.db.kysely);
  return {
    /** One data model version, or 'Cannot load schema {id} from server' (spec 001 §8). */
    async find(id: string): Promise<SchemaDocument> {
      const row = isId(id) ? await repo.byId(id) : undefined;
      if (!row) throw notFound(`Cannot load schema ${id} from server`);
      return toDocument(row);
    },

    /** The data model versions among these ids that exist (unknown ids are left out). */
    async byIds(ids: readonly string[]): Promise<SchemaDocument[]> {
      return (await repo.byIds(ids.filter(isId))).map(toDocument);
    },

    /** Stores a new data model as version 1 of a new family. */
    async create(input: { name: string; jsonSchema: Record<string, unknown>; folder?: string | null; userId?: string | null }) {
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
      });
      return toDocument(row);
    },
  };
}

export type SchemasService = ReturnType<typeof schemasService>;
