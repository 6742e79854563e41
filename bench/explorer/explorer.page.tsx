// The explorer's tree of 10,000 documents in 500 folders, drawn from the page's query cache as
// a screen shows it after the tree has been read: its first render, and each keystroke of the filter.
import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import { folderKeys } from '../../packages/web/src/ground/calls/folders.ts';
import { Explorer } from '../../packages/web/src/ui/explorer/index.ts';
import { exposeBench, mount, nextPaint, timeUntilPaint, unmount } from '../browser/page-kit.ts';

const TOP = 20;
const SUB = 24;
const DOCS_PER_FOLDER = 20;
const OPEN = { read: [], write: [] };

function node(value: string, label: string, type: 'folder' | 'leaf', children: TreeNode[] = []): TreeNode {
  const versions = type === 'leaf' ? [{ _id: value, version: 1, vLocked: false }] : [];
  return { value, label, type, children, versions, tags: OPEN, metadataTags: [] };
}

/** Root, 20 folders of 24 folders each (500 folders with the root and the 20), 20 documents in each of the 480 and 400 in the root: 10,000. */
function bigTree(): TreeNode[] {
  let doc = 0;
  const docs = (n: number) =>
    Array.from({ length: n }, () => node(`d${doc}`, `Document ${String(doc++).padStart(5, '0')}`, 'leaf'));
  const top = Array.from({ length: TOP }, (_, t) =>
    node(
      `f${t}`,
      `Folder ${t}`,
      'folder',
      Array.from({ length: SUB }, (_, s) => node(`f${t}-${s}`, `Folder ${t}.${s}`, 'folder', docs(DOCS_PER_FOLDER))),
    ),
  );
  return [node('root', 'Data models', 'folder', [...top, ...docs(10_000 - TOP * SUB * DOCS_PER_FOLDER)])];
}

const tree = bigTree();

function Page() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
  client.setQueryData(folderKeys.tree('schema'), tree);
  return (
    <QueryClientProvider client={client}>
      <AntApp>
        <Explorer kind="schema" selectedId="d9876" onOpen={() => {}} height={800} />
      </AntApp>
    </QueryClientProvider>
  );
}

/** Types `text` into the filter as a user would: the input's value, then its input event. */
function setFilter(text: string): void {
  const input = document.querySelector<HTMLInputElement>('input[placeholder="Filter"]');
  if (!input) throw new Error('No filter input');
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setter?.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

const rows = () => document.querySelectorAll('[role=treeitem]').length;

exposeBench({
  /** The first render of the whole tree, until painted. */
  render: async () => {
    unmount();
    await nextPaint();
    const ms = await timeUntilPaint(() => mount(<Page />));
    if (rows() === 0) throw new Error('The tree drew no row');
    return ms;
  },
  /** One keystroke of the filter: the filter set to `text`, until the narrowed tree is painted. */
  keystroke: async (text: string) => {
    const ms = await timeUntilPaint(() => setFilter(text));
    if (text && !document.querySelector('.gdb-explorer-label')) throw new Error(`Nothing shown for ${text}`);
    return ms;
  },
});
