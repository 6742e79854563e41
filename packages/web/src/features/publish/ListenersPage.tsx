import type { TableColumnsType } from 'antd';
import { type ListenerView, publishListener, useListeners } from '../../ground/calls/published.ts';
import { FileName } from '../../ui/FileName.tsx';
import { formatLogDate } from '../../ui/LogView.tsx';
import { HostStates } from '../../ui/publish/HostStates.tsx';
import { pipelineLabel } from '../../ui/publish/publish-rules.ts';
import { PublishedList } from './PublishedList.tsx';

const columns: TableColumnsType<ListenerView> = [
  { title: 'Pipeline', key: 'pipeline', width: 320, render: (_: unknown, l) => <FileName name={pipelineLabel(l)} /> },
  {
    title: 'Servers',
    key: 'state',
    render: (_: unknown, l) => <HostStates hosts={l.state} label={`Servers of ${pipelineLabel(l)}`} />,
  },
  { title: 'Create date', key: 'createDate', width: 170, render: (_: unknown, l) => formatLogDate(l.createDate) },
  { title: 'Created by', key: 'createUsername', width: 140, render: (_: unknown, l) => <FileName name={l.createUsername} /> },
];

const searchTexts = (l: ListenerView) => [pipelineLabel(l), l.createUsername, ...l.state.flatMap((h) => [h.hostname, h.state])];

/** Re-publishing a listener restarts its consumers with the stored settings; it has no key. */
async function republish(l: ListenerView) {
  await publishListener({ id: l.pipelineId });
  return null;
}

/** Manage listeners (/manage/listeners). */
export function ListenersPage() {
  const query = useListeners();
  return (
    <PublishedList<ListenerView>
      kind="listener"
      title="Listeners"
      query={query}
      columns={columns}
      searchTexts={searchTexts}
      republish={republish}
      width={1000}
    />
  );
}
