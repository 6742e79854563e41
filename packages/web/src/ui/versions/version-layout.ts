import type { VersionRecord } from '@gdb/shared/versions/versions.schemas';
import ELK from 'elkjs/lib/elk.bundled.js';

/** The size of a version's box in the graph. */
export const VERSION_NODE = { width: 130, height: 56 } as const;

/** An edge from a parent version to the version made from it. */
export interface VersionEdge {
  id: string;
  source: string;
  target: string;
}

/** The edges of a family: each version to its parents that are still in the family. */
export function versionEdges(versions: readonly VersionRecord[]): VersionEdge[] {
  const ids = new Set(versions.map((v) => v._id));
  return versions.flatMap((v) =>
    v.vParents.filter((p) => ids.has(p)).map((p) => ({ id: `${p}->${v._id}`, source: p, target: v._id })),
  );
}

let elk: InstanceType<typeof ELK> | undefined;

/** Places the versions top-down in layers (a parent above what was made from it); answers each box's corner. */
export async function layoutVersions(versions: readonly VersionRecord[]): Promise<Map<string, { x: number; y: number }>> {
  elk ??= new ELK();
  const root = await elk.layout({
    id: 'versions',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.spacing.nodeNode': '40',
      'elk.layered.spacing.nodeNodeBetweenLayers': '50',
    },
    children: versions.map((v) => ({ id: v._id, ...VERSION_NODE })),
    edges: versionEdges(versions).map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  });
  return new Map((root.children ?? []).map((n) => [n.id, { x: n.x ?? 0, y: n.y ?? 0 }]));
}
