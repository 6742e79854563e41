import type { EndpointView } from '@gdb/shared/endpoints/endpoint.schemas';
import type { TableColumnsType } from 'antd';
import { publishEndpoint, useEndpoints } from '../../ground/calls/published.ts';
import { FileName } from '../../ui/FileName.tsx';
import { formatLogDate } from '../../ui/LogView.tsx';
import { pipelineLabel } from '../../ui/publish/publish-rules.ts';
import { PublishedList } from './PublishedList.tsx';

/** The component column: its name and version, or '-' when the pipeline runs none. */
const componentLabel = (e: EndpointView) => (e.componentName ? `${e.componentName} (v.${e.componentVersion ?? '?'})` : '-');

const columns: TableColumnsType<EndpointView> = [
  { title: 'Path', key: 'path', render: (_: unknown, e) => <FileName name={e.path} /> },
  { title: 'Pipeline', key: 'pipeline', render: (_: unknown, e) => <FileName name={pipelineLabel(e)} /> },
  { title: 'Component', key: 'component', render: (_: unknown, e) => <FileName name={componentLabel(e)} /> },
  { title: 'Exposed route', key: 'route', render: (_: unknown, e) => <FileName name={e.route} /> },
  { title: 'Create date', key: 'createDate', width: 170, render: (_: unknown, e) => formatLogDate(e.createDate) },
  { title: 'Created by', key: 'createUsername', width: 140, render: (_: unknown, e) => <FileName name={e.createUsername} /> },
  { title: 'Update date', key: 'updateDate', width: 170, render: (_: unknown, e) => formatLogDate(e.updateDate) },
  { title: 'Updated by', key: 'updateUsername', width: 140, render: (_: unknown, e) => <FileName name={e.updateUsername} /> },
];

const searchTexts = (e: EndpointView) => [
  e.path,
  pipelineLabel(e),
  componentLabel(e),
  e.route,
  e.createUsername,
  e.updateUsername,
];

/** Re-publishing an endpoint replaces its key: the new one is shown this once. */
async function republish(e: EndpointView) {
  const answer = await publishEndpoint({ id: e.pipelineId });
  return { route: answer.route, apiKey: answer.apiKey };
}

/** Manage endpoints (/manage/endpoints). */
export function EndpointsPage() {
  const query = useEndpoints();
  return (
    <PublishedList<EndpointView>
      kind="endpoint"
      title="Endpoints"
      query={query}
      columns={columns}
      searchTexts={searchTexts}
      republish={republish}
      width={1200}
    />
  );
}
