import {
  type ComponentHierarchy,
  type HierarchyComponent,
  type HierarchyPipeline,
  type Usage,
  usageOf,
} from '@gdb/shared/components/hierarchy.schemas';
import type { VersionDoc } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { VersionsService } from '../versions/versions.service.ts';
import type { ComponentRow, componentsRepo } from './components.repo.ts';

/** Components one hierarchy holds at most, each way: beyond, it is cut (a graph so wide is no view). */
const MAX_NODES = 2000;

type Versions = Pick<VersionsService, 'usedBy' | 'openIds'>;
type Repo = Pick<ReturnType<typeof componentsRepo>, 'byIds'>;
type ClassName = HierarchyComponent['class_name'];

/** What a walk gathers: the components with how they stand to the root, the arrows, the pipelines. */
interface Walk {
  rows: Map<string, { row: ComponentRow; className: ClassName }>;
  edges: Map<string, { from: string; to: string }>;
  pipelines: Map<string, HierarchyPipeline>;
}

const addEdge = (walk: Walk, from: string, to: string) => walk.edges.set(`${from} ${to}`, { from, to });

/** Down: the components the root runs, level by level, one query per level. */
async function walkDown(repo: Repo, root: ComponentRow, walk: Walk): Promise<void> {
  let frontier = [root];
  while (frontier.length > 0 && walk.rows.size < MAX_NODES) {
    const next = new Set<string>();
    for (const row of frontier) {
      for (const dep of row.dependencies) {
        addEdge(walk, row.id, dep);
        if (!walk.rows.has(dep)) next.add(dep);
      }
    }
    frontier = await repo.byIds([...next].slice(0, MAX_NODES));
    for (const row of frontier) walk.rows.set(row.id, { row, className: 'dependency' });
  }
}

/** Up: the components running the root through an instance, at any depth, and the pipelines invoking any of them. */
async function walkUp(repo: Repo, versions: Versions, root: ComponentRow, walk: Walk): Promise<void> {
  let frontier = [root.id];
  const seen = new Set(frontier);
  while (frontier.length > 0 && seen.size < MAX_NODES) {
    const users: string[] = [];
    for (const id of frontier) {
      for (const doc of await versions.usedBy('component', id)) {
        if (doc.kind === 'pipeline') {
          walk.pipelines.set(doc._id, {
            key: doc._id,
            name: doc.name,
            version: doc.version,
            vLocked: doc.vLocked,
            component: id,
          });
        } else if (doc.kind === 'component') {
          addEdge(walk, doc._id, id);
          if (!seen.has(doc._id)) users.push(doc._id);
          seen.add(doc._id);
        }
      }
    }
    frontier = users;
    for (const row of await repo.byIds(users)) {
      if (!walk.rows.has(row.id)) walk.rows.set(row.id, { row, className: 'user' });
    }
  }
}

/**
 * The dependency hierarchy of a component version (docs/product.md §16.6): what it runs and what runs it, at any
 * depth, and the pipelines invoking it or a component running it; a document the viewer may not
 * read is left out, with its arrows.
 */
export async function componentHierarchy(
  viewer: AuthContext,
  root: ComponentRow,
  deps: { repo: Repo; versions: Versions },
): Promise<ComponentHierarchy> {
  const walk: Walk = { rows: new Map([[root.id, { row: root, className: 'selected' }]]), edges: new Map(), pipelines: new Map() };
  await walkDown(deps.repo, root, walk);
  await walkUp(deps.repo, deps.versions, root, walk);
  const docs: Pick<VersionDoc, '_id' | 'kind'>[] = [
    ...[...walk.rows.keys()].map((id) => ({ _id: id, kind: 'component' as const })),
    ...[...walk.pipelines.keys()].map((id) => ({ _id: id, kind: 'pipeline' as const })),
  ];
  const open = await deps.versions.openIds(viewer, docs);
  open.add(root.id);
  const dependencies = [...walk.edges.values()].filter((e) => open.has(e.from) && open.has(e.to) && walk.rows.has(e.to));
  const components = [...walk.rows.values()]
    .filter(({ row }) => open.has(row.id))
    .map(({ row, className }) => ({
      key: row.id,
      name: row.name,
      class_name: className,
      version: row.version,
      vLocked: row.v_locked,
      type: row.kind,
      sources: dependencies.filter((e) => e.to === row.id).map((e) => e.from),
    }));
  return {
    components,
    pipelines: [...walk.pipelines.values()].filter((p) => open.has(p.key)),
    dependencies,
    bottomComponents: components.filter((c) => walk.rows.get(c.key)?.row.dependencies.length === 0).map((c) => c.key),
    component: root.id,
  };
}

/** The components and pipelines using a component version that the viewer may read ('Usages'). */
export async function componentUsages(viewer: AuthContext, id: string, versions: Versions): Promise<Usage[]> {
  const users = (await versions.usedBy('component', id)).filter((d) => d.kind === 'component' || d.kind === 'pipeline');
  const open = await versions.openIds(viewer, users);
  return users.flatMap((d) =>
    open.has(d._id) && (d.kind === 'component' || d.kind === 'pipeline') ? [usageOf({ ...d, kind: d.kind })] : [],
  );
}
