import type { SdkListEntry } from '@gdb/shared/sdk/sdk.schemas';
import { versionLabel } from '@gdb/shared/versions/versions.schemas';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Empty, Input, Spin, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { sdkDocumentation, sdkKeys } from '../../ground/calls/sdk.ts';
import { errorText } from '../../ground/request/failure.ts';
import { tagExpression } from '../../ui/explorer/explorer-rules.ts';
import { ListBox } from '../../ui/ListBox.tsx';
import { tagListQuery } from '../../ui/tags/api.ts';
import { DOCUMENTATION_TEXTS as T } from './documentation-texts.ts';
import './documentation.css';

const label = (entry: SdkListEntry) => `${entry.functionName} ${versionLabel(entry)}`;

/** Documentation (/manage/documentation): the SDK functions listed; the one chosen shows what it does and who may read and change it. */
export function DocumentationPage() {
  const list = useQuery({ queryKey: sdkKeys.documentation, queryFn: ({ signal }) => sdkDocumentation(signal), retry: false });
  const [filter, setFilter] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const shown = useMemo(() => {
    const words = filter.trim().toLowerCase();
    return (list.data ?? []).filter((e) => !words || e.functionName.toLowerCase().includes(words));
  }, [list.data, filter]);
  const entry = list.data?.find((e) => e._id === chosen) ?? null;

  return (
    <div className="gdb-documentation">
      <aside className="gdb-documentation-left" aria-label={T.functions}>
        <Input.Search allowClear placeholder={T.filter} aria-label={T.filter} onChange={(e) => setFilter(e.target.value)} />
        {list.isLoading && <Spin />}
        {list.error && <Alert type="error" showIcon role="alert" title={errorText(list.error)} />}
        {list.data && (
          <ListBox
            items={shown}
            keyOf={(e) => e._id}
            selectedKey={chosen}
            onSelect={(e) => setChosen(e._id)}
            label={T.functions}
            emptyText={T.none}
          >
            {(e) => label(e)}
          </ListBox>
        )}
      </aside>
      <section className="gdb-documentation-entry" aria-label={entry ? entry.functionName : T.documentation}>
        {entry ? <EntryView entry={entry} /> : <Empty description={T.choose} />}
      </section>
    </div>
  );
}

/** A text of the entry, its line breaks kept; a dash when it is empty. */
const text = (value: string) => (value.trim() ? <span className="gdb-documentation-text">{value}</span> : T.empty);

/** One function's documentation, input, output, error, version and read and write badges. */
function EntryView({ entry }: { entry: SdkListEntry }) {
  const tags = useQuery(tagListQuery());
  const names = useMemo(() => new Map((tags.data ?? []).map((t) => [t._id, t.name])), [tags.data]);
  const badges = (groups: readonly (readonly string[])[]) => tagExpression(groups, names) || T.open;
  return (
    <>
      <Typography.Title level={4}>{entry.functionName}</Typography.Title>
      <Descriptions
        column={1}
        size="small"
        bordered
        items={[
          { key: 'documentation', label: T.documentation, children: text(entry.documentation) },
          { key: 'input', label: T.input, children: text(entry.input) },
          { key: 'output', label: T.output, children: text(entry.output) },
          { key: 'error', label: T.error, children: text(entry.error) },
          { key: 'version', label: T.version, children: versionLabel(entry) },
          {
            key: 'modules',
            label: T.modules,
            children: entry.modules.length
              ? entry.modules.map((m) => <Tag key={m.name}>{m.version ? `${m.name}@${m.version}` : m.name}</Tag>)
              : T.empty,
          },
          { key: 'read', label: T.read, children: <Tag>{badges(entry.tags.read)}</Tag> },
          { key: 'write', label: T.write, children: <Tag>{badges(entry.tags.write)}</Tag> },
        ]}
      />
    </>
  );
}
