import {
  type UpdateData,
  type UpdateEntry,
  type UpdateReport,
  type VersionKind,
  versionLabel,
} from '@gdb/shared/versions/versions.schemas';
import { App, Button, Checkbox, Space, Spin, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useUpdateReport, type VersionPath, versionCalls } from '../../ground/calls/versions.ts';
import { errorText, showFailure } from '../../ground/request/failure.ts';
import { Dialog } from '../dialog/Dialog.tsx';
import { kindWord, showResults, VERSION_TEXTS } from './version-texts.ts';
import type { VersionedDoc } from './versioned-doc.ts';

export interface UpdatePreviewDialogProps {
  open: boolean;
  kind: VersionKind;
  path: VersionPath;
  doc: VersionedDoc;
  /** The update made new versions: open this one (the asked document's new version). */
  onUpdated: (newId: string) => void;
  onClose: () => void;
  afterClose?: () => void;
}

/** The report's groups, in the order the dialog lists them, with the payload field each fills. */
const GROUPS = [
  { key: 'schemas', kind: 'schema', field: 'schemasToUpdate' },
  { key: 'components', kind: 'component', field: 'componentsToUpdate' },
  { key: 'sdk', kind: 'sdk', field: 'sdkToUpdate' },
  { key: 'pipelines', kind: 'pipeline', field: 'pipelinesToUpdate' },
] as const;

type Row = UpdateEntry & { kind: VersionKind };

const rowsOf = (report: UpdateReport): Row[] => GROUPS.flatMap((g) => report.data[g.key].map((e) => ({ ...e, kind: g.kind })));

/** 'Master ' or 'Country ' for pipelines, then the capitalised type, the name and its version label. */
export function updateTitle(kind: VersionKind, doc: VersionedDoc): string {
  const role = kind === 'pipeline' ? (doc.isMaster ? 'Master ' : 'Country ') : '';
  return `${role}${kindWord(kind)} ${doc.name} ${versionLabel(doc)}`;
}

/** What follows the update: the jobs, and for a master its country pipelines. */
interface Followers {
  updateJobs: boolean;
  updateCountries: boolean;
}

/** The update payload: the chosen dependencies by kind, and what follows (countries only for pipelines). */
function payloadOf(kind: VersionKind, id: string, rows: readonly Row[], chosen: ReadonlySet<string>, follow: Followers) {
  const data: UpdateData & { updateCountries?: boolean } = { id, updateJobs: follow.updateJobs };
  if (kind === 'pipeline') data.updateCountries = follow.updateCountries;
  for (const g of GROUPS) data[g.field] = rows.filter((r) => r.kind === g.kind && chosen.has(r.doc._id)).map((r) => r.doc._id);
  return data;
}

/** Which dependencies to take (at first every one with a newer version) and whether the jobs and countries follow. */
function useUpdateChoice(report: UpdateReport | undefined) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [follow, setFollow] = useState<Followers>({ updateJobs: false, updateCountries: false });
  useEffect(() => {
    if (!report) return;
    setChosen(new Set(rowsOf(report).flatMap((r) => (r.needUpdate ? [r.doc._id] : []))));
    setFollow({ updateJobs: report.updateJobs, updateCountries: report.updateCountries });
  }, [report]);
  const toggle = (id: string, on: boolean) =>
    setChosen((was) => {
      const next = new Set(was);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return { chosen, toggle, follow, setFollow };
}

/**
 * The update preview (docs/product.md §18.1): the report of which dependencies have a newer
 * version and which to take, 95% wide, table 60vh; 'Proceed to update ...' shows only when an
 * update is needed, is disabled while nothing is chosen and disables itself once pressed.
 */
export function UpdatePreviewDialog({ open, kind, path, doc, onUpdated, onClose, afterClose }: UpdatePreviewDialogProps) {
  const { message } = App.useApp();
  const report = useUpdateReport(path, doc._id, open);
  const rows = report.data ? rowsOf(report.data) : [];
  const { chosen, toggle, follow, setFollow } = useUpdateChoice(report.data);
  const [proceeding, setProceeding] = useState(false);

  const needed = report.data?.needUpdate ?? false;
  const allowed = needed && chosen.size > 0 && !doc.read_only && !proceeding;
  const proceed = async () => {
    setProceeding(true);
    try {
      const answer = await versionCalls(path).update(payloadOf(kind, doc._id, rows, chosen, follow));
      showResults(
        answer.success.map((s) => VERSION_TEXTS.updated(s.name, s.old_version, s.new_version)),
        answer.errors.map((e) => VERSION_TEXTS.bulkError(e, e.error)),
        (text) => void message.success(text),
        (text) => void message.error(text),
      );
      onClose();
      const opened = answer.success.at(-1);
      if (opened) onUpdated(opened.newId);
    } catch (error) {
      showFailure(error, message.error);
      setProceeding(false);
    }
  };
  const jobs = (report.data?.repeatJobs.length ?? 0) + (report.data?.scheduledJobs.length ?? 0);

  return (
    <Dialog
      open={open}
      title={updateTitle(kind, doc)}
      width="95%"
      destroyOnHidden
      onCancel={onClose}
      afterClose={() => {
        setProceeding(false);
        afterClose?.();
      }}
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        needed && (
          <Button key="proceed" type="primary" disabled={!allowed} loading={proceeding} onClick={() => void proceed()}>
            {VERSION_TEXTS.proceed}
          </Button>
        ),
      ]}
    >
      {report.error ? (
        <Typography.Text type="danger">{errorText(report.error)}</Typography.Text>
      ) : !report.data ? (
        <div role="status" aria-label="Loading the update report">
          <Spin />
        </div>
      ) : (
        <>
          {!needed && <Typography.Paragraph>{VERSION_TEXTS.upToDate}</Typography.Paragraph>}
          <FollowersChoice
            follow={follow}
            onChange={setFollow}
            jobs={jobs > 0}
            countries={kind === 'pipeline' && report.data.updateCountries}
            disabled={proceeding}
          />
          <ReportTable rows={rows} chosen={chosen} onToggle={toggle} disabled={proceeding} />
        </>
      )}
    </Dialog>
  );
}

interface FollowersChoiceProps {
  follow: Followers;
  onChange: (follow: Followers) => void;
  /** Jobs point at the version. */
  jobs: boolean;
  /** A master with country pipelines. */
  countries: boolean;
  disabled: boolean;
}

/** The options of the update: move the jobs, update the country pipelines of a master. */
function FollowersChoice({ follow, onChange, jobs, countries, disabled }: FollowersChoiceProps) {
  return (
    <Space wrap>
      {countries && (
        <Checkbox
          checked={follow.updateCountries}
          disabled={disabled}
          onChange={(e) => onChange({ ...follow, updateCountries: e.target.checked })}
        >
          {VERSION_TEXTS.updateCountries}
        </Checkbox>
      )}
      {jobs && (
        <Checkbox
          checked={follow.updateJobs}
          disabled={disabled}
          onChange={(e) => onChange({ ...follow, updateJobs: e.target.checked })}
        >
          {VERSION_TEXTS.updateJobs}
        </Checkbox>
      )}
    </Space>
  );
}

interface ReportTableProps {
  rows: readonly Row[];
  chosen: ReadonlySet<string>;
  onToggle: (id: string, on: boolean) => void;
  disabled: boolean;
}

/** Each dependency: its type, name, the version in use, the newer one, and whether to take it. */
function ReportTable({ rows, chosen, onToggle, disabled }: ReportTableProps) {
  return (
    <Table<Row>
      size="small"
      rowKey={(r) => r.doc._id}
      dataSource={[...rows]}
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
            r.needUpdate && r.newVersionNumber !== null
              ? versionLabel({ version: r.newVersionNumber, vLocked: r.newDocIsLocked })
              : '—',
        },
        {
          title: 'Update',
          key: 'take',
          render: (_, r) =>
            r.needUpdate ? (
              <Checkbox
                aria-label={`Update ${r.doc.name}`}
                checked={chosen.has(r.doc._id)}
                disabled={disabled}
                onChange={(e) => onToggle(r.doc._id, e.target.checked)}
              />
            ) : null,
        },
      ]}
    />
  );
}
