import { type Usage, usageOf } from '@gdb/shared/components/hierarchy.schemas';
import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import type { SdkFunction } from '@gdb/shared/sdk/sdk.schemas';
import type { VulnerabilityReport } from '@gdb/shared/sdk/sdk-report.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { SdkModules } from '../../runtime/sdk-modules.ts';
import type { VersionsService } from '../versions/versions.service.ts';
import type { AdvisoryCheck } from './advisories.ts';
import type { SdkRow } from './sdk.repo.ts';

/** What the SDK editor's tools read beyond the functions: the modules allowed, the advisories, the explorer tree. */
export interface SdkTools {
  modules: Pick<SdkModules, 'resolve'>;
  advisories: AdvisoryCheck;
  /** The SDK functions' explorer tree as the caller may read it. */
  tree(auth: AuthContext): Promise<TreeNode[]>;
}

/** Who points at a version, and which of those the caller may read (the version engine). */
export type ToolVersions = Pick<VersionsService, 'usedBy' | 'openIds'>;

/** The SDK editor's explorer, 'Usages' and vulnerability report, each for a viewer the read check lets through. */
export function editorTools(deps: {
  readable: (id: string, viewer: AuthContext) => Promise<SdkRow>;
  versions: ToolVersions;
  tools: SdkTools;
  modules: (row: SdkRow) => SdkFunction['modules'];
}) {
  const { readable, versions, tools } = deps;
  return {
    /** The explorer tree of the SDK functions the viewer may read. */
    explorer: (viewer: AuthContext): Promise<TreeNode[]> => tools.tree(viewer),

    /** The component versions calling this SDK function version that the viewer may read ('Usages'). */
    async usages(id: string, viewer: AuthContext): Promise<Usage[]> {
      await readable(id, viewer);
      const users = (await versions.usedBy('sdk', id)).filter((d) => d.kind === 'component');
      const open = await versions.openIds(viewer, users);
      return users.filter((d) => open.has(d._id)).map((d) => usageOf({ ...d, kind: 'component' }));
    },

    /** The vulnerability report of a version's modules; `refresh` reads the advisory set again first. */
    async vulnerabilities(id: string, viewer: AuthContext, refresh: boolean): Promise<VulnerabilityReport> {
      const row = await readable(id, viewer);
      return tools.advisories.report(row.id, deps.modules(row), refresh);
    },
  };
}
