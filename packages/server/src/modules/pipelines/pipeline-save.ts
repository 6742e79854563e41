import type { FolderKind } from '@gdb/shared/folders/folders.schemas';
import { type DataSource, dataSinkSchema, dataSourceSchema } from '@gdb/shared/pipelines/pipeline.schemas';
import { PIPELINE_SAVE_MESSAGES, type PipelineSaveBody, pipelineSaveIssue } from '@gdb/shared/pipelines/pipeline-save.schemas';
import { VERSION_MESSAGES, versionLabel } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { badRequest, forbidden } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { ACCESS_MESSAGES, type DocumentAccess } from '../access/access.service.ts';
import type { AccessedDocument, CallerAccess } from '../access/access.types.ts';
import type { ReferenceService } from '../reference/reference.service.ts';
import type { VersionsService } from '../versions/versions.service.ts';
import type { PipelineRow, pipelinesRepo } from './pipelines.repo.ts';

/** The versions among these ids that exist, with the folder and badges the read check needs. */
type DocumentsOf = (ids: readonly string[]) => Promise<({ _id: string } & AccessedDocument)[]>;

/** What a pipeline save reads of the other modules: the components and data models it names, the reference lists. */
export interface PipelineReferences {
  components: DocumentsOf;
  dataModels: DocumentsOf;
  reference: ReferenceService;
}

type Repo = ReturnType<typeof pipelinesRepo>;
export type SaveVersions = Pick<VersionsService, 'load' | 'assertCanWrite' | 'saveDraft'>;

/** The columns a save writes, before a country takes its master's. */
interface Columns {
  name: string;
  is_master: boolean;
  master_pipeline: string | null;
  component: string | null;
  pipeline_schema: string | null;
  data_sources: DataSource[];
  data_sinks: ReturnType<typeof dataSinkSchema.parse>[];
  brand: string | null;
  locale: string | null;
  product_line: string | null;
  datakind: string | null;
}

function columnsOf(body: PipelineSaveBody): Columns {
  return {
    name: body.name,
    is_master: body.isMaster,
    master_pipeline: body.isMaster ? null : (body.masterPipeline ?? null),
    component: body.component ?? null,
    pipeline_schema: body.pipelineSchema ?? null,
    data_sources: body.dataSources,
    data_sinks: body.dataSinks,
    brand: body.brand ?? null,
    locale: body.locale ?? null,
    product_line: body.productLine ?? null,
    datakind: body.datakind ?? null,
  };
}

/**
 * A country pipeline takes its master's data models, data sources and sinks, brand, locale,
 * product line, datakind and component (docs/product.md §8.3); of a source it keeps only its own
 * `dataFromMaster` for a dataSubKind the master also has.
 */
function inherited(columns: Columns, master: PipelineRow): Columns {
  const own = new Map(columns.data_sources.map((s) => [s.dataSubKind, s.dataFromMaster]));
  const sources = dataSourceSchema.array().catch([]).parse(master.data_sources);
  return {
    ...columns,
    component: master.component,
    pipeline_schema: master.pipeline_schema,
    data_sources: sources.map((s) => ({ ...s, dataFromMaster: own.get(s.dataSubKind) ?? false })),
    data_sinks: dataSinkSchema.array().catch([]).parse(master.data_sinks),
    brand: master.brand,
    locale: master.locale,
    product_line: master.product_line,
    datakind: master.datakind,
  };
}

/** Refuses (400) an id of the reference lists that names nothing. */
async function assertReferenceValues(reference: ReferenceService, c: Columns): Promise<void> {
  const [brands, locales, lines, kinds] = await Promise.all([
    reference.brands(),
    reference.locales(),
    reference.productLines(),
    reference.datakinds(),
  ]);
  const checks: [string, string | null, readonly { _id: string }[]][] = [
    ['brand', c.brand, brands],
    ['locale', c.locale, locales],
    ['product line', c.product_line, lines],
    ['datakind', c.datakind, kinds],
  ];
  for (const [what, id, list] of checks) {
    if (id !== null && !list.some((x) => x._id === id)) throw badRequest(`The ${what} ${id} does not exist.`);
  }
}

/**
 * Refuses a document named that does not exist (400) or that the caller may not read (403), by the
 * id the caller sent: a closed document's name is not told (docs/decisions.md, "Answers name only
 * what the caller reads").
 */
async function assertReadable(
  [kind, what]: [FolderKind, string],
  ids: readonly string[],
  documentsOf: DocumentsOf,
  caller: CallerAccess,
) {
  const asked = [...new Set(ids)];
  if (asked.length === 0) return;
  const found = new Map((await documentsOf(asked)).map((d) => [d._id, d]));
  const missing = asked.find((id) => !found.has(id));
  if (missing) throw badRequest(`The ${what} ${missing} does not exist.`);
  for (const id of asked) {
    const doc = found.get(id) as AccessedDocument;
    if (!(await caller.may('read', kind, doc))) throw forbidden(`You are not allowed to read the ${what} ${id}.`);
  }
}

/**
 * POST /pipelines (docs/product.md §8.3, §18.6): creates a pipeline, or saves a draft's full body
 * read at `sys_version` (409 over a newer save). An existing pipeline is checked against the save
 * rules in their order and words; the folder must be writable through the caller's badges (and,
 * for a draft, the pipeline itself); the master, component and data models named must exist and
 * be readable by the caller, and a country takes what it inherits from its master.
 */
export function pipelineSave(repo: Repo, versions: SaveVersions, access: DocumentAccess, refs: PipelineReferences) {
  /** The master a country names: an existing master pipeline, not a version of itself, that the caller may read. */
  async function masterOf(auth: AuthContext, id: string, familyId: string | null): Promise<PipelineRow> {
    const master = await repo.byId(id);
    if (!master) throw badRequest(`The master pipeline ${id} does not exist.`);
    if (master.family_id === familyId) throw badRequest(PIPELINE_SAVE_MESSAGES.ownMaster);
    const may = await (await access(auth)).may('read', 'pipeline', { folder: master.folder_id, tags: master.tags });
    if (!may) throw forbidden(`You are not allowed to read the master pipeline ${id}.`);
    const doc = { name: master.name, version: master.version, vLocked: master.v_locked };
    if (!master.is_master) throw badRequest(`The pipeline ${doc.name} ${versionLabel(doc)} is not a master pipeline.`);
    return master;
  }

  /** The columns to write: the body's, a country's inherited ones, every reference checked. */
  async function checkedColumns(auth: AuthContext, body: PipelineSaveBody, familyId: string | null): Promise<Columns> {
    let columns = columnsOf(body);
    if (columns.master_pipeline) columns = inherited(columns, await masterOf(auth, columns.master_pipeline, familyId));
    const caller = await access(auth);
    await assertReadable(['component', 'component'], columns.component ? [columns.component] : [], refs.components, caller);
    const models = [columns.pipeline_schema, ...columns.data_sources.map((s) => s.dataModel)].flatMap((m) => m ?? []);
    await assertReadable(['schema', 'data model'], models, refs.dataModels, caller);
    await assertReferenceValues(refs.reference, columns);
    return columns;
  }

  const written = (c: Columns, body: PipelineSaveBody) => ({
    ...c,
    data_sources: JSON.stringify(c.data_sources),
    data_sinks: JSON.stringify(c.data_sinks),
    ...(body.isHidden !== undefined ? { is_hidden: body.isHidden } : {}),
  });

  async function create(auth: AuthContext, body: PipelineSaveBody): Promise<string> {
    if (body.sys_version !== undefined) throw badRequest(VERSION_MESSAGES.missingId);
    const folder = body.folder ?? null;
    await (await access(auth)).assert('write', 'pipeline', { folder, tags: null }, ACCESS_MESSAGES.write);
    const columns = written(await checkedColumns(auth, body, null), body);
    const id = newId();
    await repo.insert({
      ...columns,
      id,
      family_id: id,
      version: 1,
      folder_id: folder,
      created_by: auth.userId,
      updated_by: auth.userId,
    });
    return id;
  }

  async function saveDraft(auth: AuthContext, body: PipelineSaveBody & { _id: string }): Promise<string> {
    if (body.version === undefined) throw badRequest(VERSION_MESSAGES.missingVersion);
    if (body.sys_version === undefined) throw badRequest(VERSION_MESSAGES.missingSysVersion);
    const current = await versions.load('pipeline', body._id);
    const issue = pipelineSaveIssue(body);
    if (issue) throw badRequest(issue);
    await versions.assertCanWrite(auth, 'pipeline', current, 'edit');
    if (body.folder !== undefined && body.folder !== current.folder_id) {
      await (await access(auth)).assert('write', 'pipeline', { folder: body.folder, tags: null }, ACCESS_MESSAGES.write);
    }
    const columns = written(await checkedColumns(auth, body, current.family_id), body);
    const folder = body.folder !== undefined ? { folder_id: body.folder } : {};
    await versions.saveDraft('pipeline', auth, body._id, body.sys_version, { ...columns, ...folder });
    return body._id;
  }

  /** Creates or saves; answers the id of the version written. */
  return (auth: AuthContext, body: PipelineSaveBody): Promise<string> =>
    body._id ? saveDraft(auth, { ...body, _id: body._id }) : create(auth, body);
}
