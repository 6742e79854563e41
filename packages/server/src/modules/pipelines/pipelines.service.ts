import { hasAnyRole } from '@gdb/shared/auth/roles';
import {
  type DataSink,
  type DataSource,
  dataSinkSchema,
  dataSourceSchema,
  type PipelineView,
  sortPipelines,
} from '@gdb/shared/pipelines/pipeline.schemas';
import type { PipelineSaveBody } from '@gdb/shared/pipelines/pipeline-save.schemas';
import type { Brand, Datakind, Locale, ProductLine } from '@gdb/shared/reference/reference.schemas';
import type { AssignablePipeline } from '@gdb/shared/users/users.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/http/errors.ts';
import { isUuid, newId } from '../../platform/ids.ts';
import type { DocumentAccess } from '../access/access.service.ts';
import type { ReferenceService } from '../reference/reference.service.ts';
import type { UsersService } from '../users/users.service.ts';
import { type FilterPipelines, pipelineBadges, pipelineReadRule } from './pipeline-access.ts';
import { type PipelineImports, type PipelineVersions, pipelineDelete } from './pipeline-delete.ts';
import { type PipelineReferences, pipelineSave, type SaveVersions } from './pipeline-save.ts';
import { type FamilyRow, type PipelineFilter, type PipelineRow, pipelinesRepo } from './pipelines.repo.ts';

/** The reference data a pipeline names, by id. */
interface References {
  brands: Map<string, Brand>;
  locales: Map<string, Locale>;
  productLines: Map<string, ProductLine>;
  datakinds: Map<string, Datakind>;
}

const byId = <T extends { _id: string }>(list: readonly T[]) => new Map(list.map((x) => [x._id, x]));
const named = <T>(map: Map<string, T>, id: string | null): T | null => {
  const found = id === null ? undefined : map.get(id);
  return found ? { ...found } : null;
};

/** The reference lists, read through the reference service (which keeps them for a while). */
async function referencesOf(reference: ReferenceService): Promise<References> {
  const [brands, locales, productLines, datakinds] = await Promise.all([
    reference.brands(),
    reference.locales(),
    reference.productLines(),
    reference.datakinds(),
  ]);
  return { brands: byId(brands), locales: byId(locales), productLines: byId(productLines), datakinds: byId(datakinds) };
}

/** Turns a row into the API's view; stored JSON is re-checked so a bad row cannot leak out. */
function toView(r: PipelineRow, ref: References): PipelineView {
  const sources = dataSourceSchema.array().safeParse(r.data_sources);
  const sinks = dataSinkSchema.array().safeParse(r.data_sinks);
  return {
    _id: r.id,
    familyId: r.family_id,
    name: r.name,
    version: r.version,
    vLocked: r.v_locked,
    read_only: r.read_only,
    isMaster: r.is_master,
    masterPipeline: r.master_pipeline,
    component: r.component,
    pipelineSchema: r.pipeline_schema,
    sys_version: r.sys_version,
    brand: named(ref.brands, r.brand),
    locale: named(ref.locales, r.locale),
    productLine: named(ref.productLines, r.product_line),
    datakind: named(ref.datakinds, r.datakind),
    isHidden: r.is_hidden,
    dataSources: sources.success ? sources.data : [],
    dataSinks: sinks.success ? sinks.data : [],
    folder: r.folder_id,
    tags: r.tags,
  };
}

/** For each family, the newest locked version, else the newest version. */
function productionVersions(rows: readonly PipelineView[]): PipelineView[] {
  const best = new Map<string, PipelineView>();
  for (const p of rows) {
    const current = best.get(p.familyId);
    const better = !current || (p.vLocked && !current.vLocked) || (p.vLocked === current.vLocked && p.version > current.version);
    if (better) best.set(p.familyId, p);
  }
  return [...best.values()];
}

function toAssignable(p: FamilyRow): AssignablePipeline {
  return {
    _id: p.family_id,
    name: p.name,
    version: p.version,
    isMaster: p.is_master,
    brand: p.brand,
    locale: p.locale,
    productLine: p.product_line,
    datakind: p.datakind,
  };
}

function familyMap(rows: readonly { id: string; family_id: string }[]): Map<string, string> {
  const family = new Map<string, string>();
  for (const r of rows) {
    family.set(r.id, r.family_id);
    family.set(r.family_id, r.family_id);
  }
  return family;
}

/** What a record shows of the pipeline it belongs to. */
export interface PipelineName {
  name: string;
  version: number;
}

export interface NewPipeline {
  name: string;
  isMaster: boolean;
  masterPipeline?: string | null;
  component?: string | null;
  dataSources: DataSource[];
  dataSinks: DataSink[];
  brand?: string | null;
  locale?: string | null;
  productLine?: string | null;
  datakind?: string | null;
  vLocked?: boolean;
  familyId?: string;
  version?: number;
  createdBy?: string | null;
}

/** Managers, admins and super-admins see every version; a user only production versions. */
const seesEveryVersion = (auth: AuthContext) => hasAnyRole(auth.roles, ['manager', 'admin', 'super-admin']);

/** What the caller may see of these pipelines: badges for everyone, assignments and dealer kind for the role user. */
function pipelineVisibility(users: UsersService, access: DocumentAccess) {
  return async (auth: AuthContext, views: PipelineView[]): Promise<PipelineView[]> => {
    if (auth.roles.includes('super-admin')) return views;
    // Read with the caller's session (and kept with it in the session cache) when it carries it.
    const user = await users.callerProfile(auth);
    if (!user) return [];
    const readable = await (await access(auth)).filter('read', 'pipeline', views, (p) => ({ folder: p.folder, tags: p.tags }));
    if (seesEveryVersion(auth)) return readable;
    const families = new Set(user.assignedFamilies);
    const assigned = readable.filter((p) => families.has(p.familyId) && !p.isHidden);
    const allowed = user.unrestrictedUpload ? assigned : assigned.filter((p) => p.datakind?.isDealer === true);
    return productionVersions(allowed);
  };
}

/** Stores a pipeline version as given. */
async function insertPipeline(repo: ReturnType<typeof pipelinesRepo>, input: NewPipeline): Promise<string> {
  const row = await repo.insert({
    id: newId(),
    family_id: input.familyId ?? newId(),
    version: input.version ?? 1,
    v_locked: input.vLocked ?? false,
    name: input.name,
    is_master: input.isMaster,
    master_pipeline: input.masterPipeline ?? null,
    component: input.component ?? null,
    pipeline_schema: null,
    folder_id: null,
    data_sources: JSON.stringify(input.dataSources.map((s) => dataSourceSchema.parse(s))),
    data_sinks: JSON.stringify(input.dataSinks.map((s) => dataSinkSchema.parse(s))),
    brand: input.brand ?? null,
    locale: input.locale ?? null,
    product_line: input.productLine ?? null,
    datakind: input.datakind ?? null,
    created_by: input.createdBy ?? null,
    updated_by: input.createdBy ?? null,
  });
  return row.id;
}

export function pipelinesService(
  ctx: AppContext,
  deps: {
    users: UsersService;
    reference: ReferenceService;
    versions: PipelineVersions & SaveVersions;
    /** The components and data models a saved pipeline names (wired at start-up), and the reference lists. */
    references: Omit<PipelineReferences, 'reference'>;
    access: DocumentAccess;
    /** What deleting a pipeline asks of its imports and jobs. */
    imports?: PipelineImports;
  },
) {
  const repo = pipelinesRepo(ctx.db.kysely);
  const { access } = deps;
  const { readableIds, liveVisible } = pipelineBadges(repo.badgesOfIds, access);
  const save = pipelineSave(repo, deps.versions, access, { ...deps.references, reference: deps.reference });
  const views = async (rows: readonly PipelineRow[]) => {
    const ref = await referencesOf(deps.reference);
    return rows.map((r) => toView(r, ref));
  };

  const visibleTo = pipelineVisibility(deps.users, access);
  /** A user's pipelines: the production version of each assigned family (docs/decisions.md), whatever version was asked. */
  const production = async (auth: AuthContext) => visibleTo(auth, await views(await repo.all()));

  return {
    /** The read rule of a live collection whose documents belong to pipelines (`pipelinesOf` finds those a filter reaches). */
    liveReadRule: (pipelinesOf: FilterPipelines) =>
      pipelineReadRule(
        { familiesOfIds: repo.familiesOfIds, assignedFamilies: deps.users.assignedFamilies, readableIds },
        pipelinesOf,
      ),
    liveVisible,
    /** The newest version of every pipeline family the caller's badges open, as the list of pipelines to assign shows it. */
    assignable: async (auth: AuthContext): Promise<AssignablePipeline[]> => {
      const readable = (await access(auth)).filter('read', 'pipeline', await repo.families(), (r) => ({
        folder: r.folder_id,
        tags: r.tags,
      }));
      return (await readable).map(toAssignable);
    },
    /** The family of each id named (a version id or a family id); unknown ids are left out. */
    familiesOf: async (ids: readonly string[]): Promise<Map<string, string>> => familyMap(await repo.familiesOf(ids)),
    /** The name and version of each of these pipelines that exists (all versions, whoever asks), by id. */
    namesOf: async (ids: readonly string[]): Promise<Map<string, PipelineName>> =>
      new Map((await repo.namesOf([...new Set(ids)])).map((r) => [r.id, { name: r.name, version: r.version }])),
    /** Ids of the pipelines (all versions) matching every reference value given, whoever asks. */
    idsWhere: (filter: PipelineFilter): Promise<string[]> => repo.idsWhere(filter),
    /** A pipeline as stored, whoever asks (the import runs and the clock act for nobody), or undefined when it is gone. */
    async stored(id: string): Promise<PipelineView | undefined> {
      const row = isUuid(id) ? await repo.byId(id) : undefined;
      return row ? (await views([row]))[0] : undefined;
    },
    /** Every pipeline (all versions), sorted masters first then by name. */
    async all(auth: AuthContext): Promise<PipelineView[]> {
      return sortPipelines(await visibleTo(auth, await views(await repo.all())));
    },
    /** One pipeline the caller may read. */
    async byId(auth: AuthContext, id: string): Promise<PipelineView> {
      const row = isUuid(id) ? await repo.byId(id) : undefined;
      if (!row) throw notFound('Pipeline not found.');
      const [view] = await visibleTo(auth, await views([row]));
      if (!view) throw forbidden('You may not read this pipeline.');
      return view;
    },
    /** The masters the caller may see; a user sees the production version of each. */
    async masters(auth: AuthContext): Promise<PipelineView[]> {
      if (!seesEveryVersion(auth)) return sortPipelines((await production(auth)).filter((p) => p.isMaster));
      return sortPipelines(await visibleTo(auth, await views(await repo.masters())));
    },
    /**
     * The country pipelines of a master version; a user sees the production version of each
     * country whose master is any version of that master's family, as the masters move on.
     */
    async countriesOf(auth: AuthContext, masterId: string): Promise<PipelineView[]> {
      if (!isUuid(masterId)) throw notFound('Pipeline not found.');
      if (seesEveryVersion(auth)) return sortPipelines(await visibleTo(auth, await views(await repo.countriesOf(masterId))));
      const [master] = await repo.familiesOfIds([masterId]);
      const countries = (await production(auth)).filter((p) => !p.isMaster && p.masterPipeline !== null);
      const familyOf = familyMap(await repo.familiesOfIds(countries.flatMap((p) => p.masterPipeline ?? [])));
      return sortPipelines(countries.filter((p) => master && familyOf.get(p.masterPipeline ?? '') === master.family_id));
    },
    /** The import screens' start-up data: reference lists and the pipelines the caller may use. */
    async forUser(auth: AuthContext) {
      const [locales, brands, datakinds, productLines, pipelines] = await Promise.all([
        deps.reference.locales(),
        deps.reference.brands(),
        deps.reference.datakinds(),
        deps.reference.productLines(),
        this.all(auth),
      ]);
      return { staticTypes: { locales, brands, datakinds, productLines }, pipelines };
    },
    /** Creates a pipeline or saves a draft (POST /pipelines, see `pipelineSave`); answers it as the caller reads it. */
    async save(auth: AuthContext, body: PipelineSaveBody): Promise<PipelineView> {
      const row = await repo.byId(await save(auth, body));
      const [view] = row ? await views([row]) : [];
      if (!view) throw notFound('Pipeline not found.');
      return view;
    },
    /** Deletes a draft pipeline version with, for a master, its country pipelines (see `pipelineDelete`). */
    remove: pipelineDelete(repo, deps.versions, deps.imports),
    /** Creates a pipeline version as given, unchecked (the demo data and the tests' factories use it). */
    create: (input: NewPipeline): Promise<string> => insertPipeline(repo, input),
  };
}

export type PipelinesService = ReturnType<typeof pipelinesService>;
