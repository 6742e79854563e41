import type { DocumentTags } from '@gdb/shared/components/versioned-document';
import type { Selectable } from 'kysely';
import { isoOf } from '../dates.ts';
import { forbidden } from '../http/errors.ts';
import type { VersionColumns } from './tables.ts';

type VersionRow = Selectable<VersionColumns>;

function tagGroups(value: unknown): string[][] {
  if (!Array.isArray(value)) return [];
  return value.map((g) => (Array.isArray(g) ? g.filter((t): t is string => typeof t === 'string') : []));
}

/** The version fields every versioned document answers, read from its row (docs/product.md §18.1). */
export function versionFields(row: VersionRow) {
  const tags: DocumentTags = { read: tagGroups(row.tags?.read), write: tagGroups(row.tags?.write) };
  return {
    _id: row.id,
    familyId: row.family_id,
    version: row.version,
    vLocked: row.v_locked,
    vParents: row.v_parents,
    read_only: row.read_only,
    write_access: !row.read_only,
    sys_version: row.sys_version,
    folder: row.folder_id,
    tags,
    metadataTags: row.metadata_tags,
    createDate: isoOf(row.created_at),
    lastUpdateDate: isoOf(row.updated_at),
  };
}

/** Refuses a write to a read-only document or a locked (production) version (docs/product.md §2.5, §18.1). */
export function assertWritable(row: Pick<VersionRow, 'read_only' | 'v_locked' | 'version'>, what: string): void {
  if (row.read_only) throw forbidden(`This ${what} is read-only.`);
  if (row.v_locked) throw forbidden(`Version ${row.version} of this ${what} is locked: create a new version to change it.`);
}
