import type { TreeNode } from '@gdb/shared/folders/folders.schemas';

const OPEN: TreeNode['tags'] = { read: [], write: [] };

export function folder(value: string, label: string, children: TreeNode[] = [], tags = OPEN): TreeNode {
  return { value, label, type: 'folder', children, versions: [], tags, metadataTags: [] };
}

export function leaf(value: string, label: string, versions = 1, tags = OPEN): TreeNode {
  return {
    value,
    label,
    type: 'leaf',
    children: [],
    versions: Array.from({ length: versions }, (_, i) => ({
      _id: i === versions - 1 ? value : `${value}-v${i + 1}`,
      version: i + 1,
      vLocked: i < versions - 1,
    })),
    tags,
    metadataTags: [],
  };
}

/**
 * Root ─ Alpha (write needs badge t1) ─ Orders (2 versions)
 *      ─ Beta ─ Gamma
 *      ─ Prices
 *      ─ Secret (write needs t9)
 */
export function sampleTree(): TreeNode[] {
  return [
    folder('root', 'Data models', [
      folder('alpha', 'Alpha', [leaf('orders', 'Orders', 2)], { read: [], write: [['t1']] }),
      folder('beta', 'Beta', [folder('gamma', 'Gamma')]),
      leaf('prices', 'Prices'),
      leaf('secret', 'Secret', 1, { read: [], write: [['t9']] }),
    ]),
  ];
}
