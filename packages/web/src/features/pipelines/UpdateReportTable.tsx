import type { PipelineUpdateReport } from '@gdb/shared/pipelines/pipeline-versions.schemas';
import { type UpdateEntry, type VersionKind, versionLabel } from '@gdb/shared/versions/versions.schemas';
import { Table, Typography } from 'antd';
import { kindWord } from '../../ui/versions/version-texts.ts';

/** The report's groups in the order the table lists them. */
const GROUPS = [
  { key: 'schemas', kind: 'schema' },
  { key: 'components', kind: 'component' },
  { key: 'sdk', kind: 'sdk' },
  { key: 'pipelines', kind: 'pipeline' },
] as const;

type Row = UpdateEntry & { kind: VersionKind };

const rowsOf = (report: PipelineUpdateReport): Row[] =>
  GROUPS.flatMap((g) => report.data[g.key].filter((e) => e.needUpdate).map((e) => ({ ...e, kind: g.kind })));

/** The update report of one pipeline: each dependency with a newer version, the one in use and the one taken; 60vh high. */
export function UpdateReportTable({ report }: { report: PipelineUpdateReport }) {
  const jobs = report.repeatJobs.length + report.scheduledJobs.length;
  return (
    <>
      <Typography.Title
        level={5}
      >{`${report.isMaster ? 'Master' : 'Country'} Pipeline ${report.doc.name} ${versionLabel(report.doc)}`}</Typography.Title>
      {jobs > 0 && <Typography.Paragraph>{`${jobs} job(s) move to the new version`}</Typography.Paragraph>}
      <Table<Row>
        size="small"
        rowKey={(r) => r.doc._id}
        dataSource={rowsOf(report)}
        pagination={false}
        scroll={{ y: '60vh' }}
        columns={[
          { title: 'Type', key: 'kind', render: (_, r) => kindWord(r.kind) },
          { title: 'Name', key: 'name', render: (_, r) => r.doc.name },
          { title: 'Version in use', key: 'doc', render: (_, r) => versionLabel(r.doc) },
          {
            title: 'Newer version',
            key: 'newer',
            render: (_, r) =>
              r.newVersionNumber === null ? '—' : versionLabel({ version: r.newVersionNumber, vLocked: r.newDocIsLocked }),
          },
        ]}
      />
    </>
  );
}
