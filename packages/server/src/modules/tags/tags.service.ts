import type { Tag, TagSaveBody, TagType } from '@gdb/shared/tags/tags.schemas';
import type { AppContext } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { type Executor, inTransaction } from '../../platform/db/transaction.ts';
import { conflict, invalid, notFound } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { type TagRow, tagsRepo } from './tags.repo.ts';

/** How long an instance serves badges from memory before reading them again. */
const CACHE_TTL_MS = 30_000;

function toTag(row: TagRow): Tag {
  return {
    _id: row.id,
    name: row.name,
    type: row.type,
    color: row.color,
    isHidden: row.is_hidden,
    isMetadata: row.is_metadata,
    metadata: row.metadata,
  };
}

/** Who holds badges: deleting badges takes them off the holders in the same transaction. */
export interface BadgeHolders {
  removeTags(tagIds: readonly string[], trx: Executor): Promise<void>;
}

export function tagsService(ctx: AppContext, holders: BadgeHolders) {
  const repo = tagsRepo(ctx.db.kysely);
  let cache: { at: number; tags: Tag[] } | null = null;

  async function load(): Promise<Tag[]> {
    const tags = (await repo.all()).map(toTag);
    cache = { at: Date.now(), tags };
    return tags;
  }

  return {
    /** Every badge, sorted by name ignoring case. */
    async list(): Promise<Tag[]> {
      const tags = cache && Date.now() - cache.at < CACHE_TTL_MS ? cache.tags : await load();
      return [...tags].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
    },

    /** Reads the badges again (another instance may have changed them) and answers them. */
    async reload(): Promise<Tag[]> {
      await load();
      return this.list();
    },

    /** Creates a badge, or updates the one named by `_id`; names are unique per type, ignoring case. */
    async save(body: TagSaveBody): Promise<Tag> {
      const color = body.type === 'project' ? (body.color ?? null) : null;
      const fields = {
        name: body.name,
        color,
        is_hidden: body.isHidden ?? false,
        is_metadata: body.isMetadata ?? false,
        metadata: body.metadata ?? null,
      };
      try {
        let row: TagRow | undefined;
        if (body._id) {
          const before = await repo.byId(body._id);
          if (!before) throw notFound('Badge not found.');
          if (before.type !== body.type)
            throw invalid('The type of a badge cannot be changed.', [
              { path: 'type', message: 'The type of a badge cannot be changed.' },
            ]);
          row = await repo.update(body._id, fields);
          if (!row) throw notFound('Badge not found.');
        } else {
          row = await repo.insert({ id: newId(), type: body.type, ...fields });
        }
        cache = null;
        return toTag(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`A ${body.type} badge named ${body.name} already exists.`);
        throw err;
      }
    },

    /** Deletes badges and takes them off every user; documents keep the ids, which nobody can hold any more. */
    async remove(ids: readonly string[]): Promise<string[]> {
      const deleted = await inTransaction(ctx.db.kysely, async (trx) => {
        await holders.removeTags(ids, trx);
        return tagsRepo(trx).deleteByIds(ids);
      });
      cache = null;
      return deleted;
    },

    /** The ids among these that are not badges of this type. */
    async unknownIds(ids: readonly string[], type: TagType): Promise<string[]> {
      const found = new Set((await repo.byIds(ids)).filter((t) => t.type === type).map((t) => t.id));
      return ids.filter((id) => !found.has(id));
    },
  };
}

export type TagsService = ReturnType<typeof tagsService>;
