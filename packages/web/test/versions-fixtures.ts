// Answers of the version calls the version bar, its dialogs and the schema picker tests share.
import type { UpdateEntry, UpdateReport, VersionKind, VersionRecord } from '@gdb/shared/versions/versions.schemas';

/** A version id: a UUID ending in `n`. */
export const vid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** The fields every versioned document answers with: a draft version 1 the user may write, saved 3 times. */
export function versionedFields(id: string, name: string) {
  return {
    _id: id,
    familyId: id,
    name,
    version: 1,
    vLocked: false,
    vParents: [],
    read_only: false,
    write_access: true,
    sys_version: 3,
    folder: null,
    tags: { read: [], write: [] },
    metadataTags: [],
    createDate: '2026-11-25T10:00:00.000Z',
    lastUpdateDate: '2026-11-25T10:00:00.000Z',
  };
}

/** Version `n` of a family, made from the versions numbered `parents`. */
export const record = (n: number, vLocked: boolean, parents: number[] = []): VersionRecord => ({
  _id: vid(n),
  version: n,
  vLocked,
  vParents: parents.map(vid),
  lastUpdateDate: `2026-03-0${n}T10:1${n}:00.000Z`,
  read_only: false,
  isMaster: false,
});

/** A family: 1 locked, 2 and 3 drafts made from 1, 4 a draft made from 2 and 3. */
export const FAMILY: VersionRecord[] = [record(1, true), record(2, false, [1]), record(3, false, [1]), record(4, false, [2, 3])];

const doc = (kind: VersionKind, id: string, name: string, version: number, vLocked = true) => ({
  _id: id,
  kind,
  familyId: `${id.slice(0, -3)}fff`,
  name,
  version,
  vLocked,
});

/** A dependency in use at `version`; with `newer`, a newer version of its family exists. */
export function entry(
  kind: VersionKind,
  id: string,
  name: string,
  version: number,
  newer?: { id: string; version: number; vLocked: boolean },
): UpdateEntry {
  return {
    doc: doc(kind, id, name, version),
    needUpdate: !!newer,
    toUpdate: newer ? doc(kind, newer.id, name, newer.version, newer.vLocked) : null,
    newVersionNumber: newer?.version ?? null,
    newDocIsLocked: newer?.vLocked ?? false,
  };
}

/** The report of the version `id` (a component) listing these schemas and components. */
export function report(id: string, schemas: UpdateEntry[], components: UpdateEntry[] = []): UpdateReport {
  const needUpdate = [...schemas, ...components].some((e) => e.needUpdate);
  return {
    _id: id,
    doc: doc('component', id, 'orders', 2, false),
    needUpdate,
    data: { schemas, components, sdk: [], pipelines: [], needUpdate },
    updateJobs: false,
    updateCountries: false,
    repeatJobs: [],
    scheduledJobs: [],
  };
}
