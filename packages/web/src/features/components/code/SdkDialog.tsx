import type { sdkListEntrySchema } from '@gdb/shared/sdk/sdk.schemas';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Table } from 'antd';
import type { z } from 'zod';
import { errorText } from '../../../ground/request/failure.ts';
import { Dialog } from '../../../ui/dialog/Dialog.tsx';
import { tagListQuery } from '../../../ui/tags/api.ts';
import { editorKeys, sdkDocumentation } from '../api.ts';
import { CODE_TEXTS } from './code-texts.ts';

type SdkEntry = z.infer<typeof sdkListEntrySchema>;

/** The names of the badges that open an entry (its ids when a badge is unknown). */
const tagsText = (tags: SdkEntry['tags'], names: ReadonlyMap<string, string>) =>
  [...new Set([...tags.read, ...tags.write].flat())].map((id) => names.get(id) ?? id).join(', ');

/** The columns of the SDK table, in the spec's order and words. */
function columns(used: ReadonlySet<string>, names: ReadonlyMap<string, string>) {
  return [
    { key: 'isUsed', title: 'isUsed', render: (_: unknown, e: SdkEntry) => (used.has(e._id) ? CODE_TEXTS.yes : CODE_TEXTS.no) },
    { key: 'name', title: 'Name', dataIndex: 'functionName' },
    { key: 'documentation', title: 'Documentation', dataIndex: 'documentation' },
    { key: 'input', title: 'Input', dataIndex: 'input' },
    { key: 'output', title: 'Output', dataIndex: 'output' },
    { key: 'error', title: 'Error', dataIndex: 'error' },
    {
      key: 'modules',
      title: 'modules',
      render: (_: unknown, e: SdkEntry) => e.modules.map((m) => `${m.name}@${m.version}`).join(', '),
    },
    { key: 'tags', title: 'tags', render: (_: unknown, e: SdkEntry) => tagsText(e.tags, names) },
    { key: 'version', title: 'version', dataIndex: 'version' },
  ];
}

/** The SDK functions a component may call, those it uses marked Yes; 'Loading...' until they come. */
export function SdkDialog({ used, onClose }: { used: readonly string[]; onClose: () => void }) {
  const list = useQuery({ queryKey: editorKeys.documentation, queryFn: ({ signal }) => sdkDocumentation(signal), retry: false });
  const tags = useQuery(tagListQuery());
  const names = new Map((tags.data ?? []).map((t) => [t._id, t.name]));
  return (
    <Dialog
      open
      title={CODE_TEXTS.sdk}
      width="90%"
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>
          {CODE_TEXTS.close}
        </Button>,
      ]}
    >
      {list.error && <Alert type="error" showIcon title={errorText(list.error)} />}
      <Table
        size="small"
        rowKey="_id"
        pagination={false}
        scroll={{ y: '60vh' }}
        loading={list.isPending}
        locale={list.isPending ? { emptyText: CODE_TEXTS.loading } : {}}
        dataSource={list.data ?? []}
        columns={columns(new Set(used), names)}
      />
    </Dialog>
  );
}
