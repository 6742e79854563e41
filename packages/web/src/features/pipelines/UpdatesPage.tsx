import type { BulkError, MassComputeEntry, PipelineUpdateAnswer } from '@gdb/shared/pipelines/pipeline-versions.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Progress, Spin, Tabs, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { errorText, showFailure } from '../../ground/request/failure.ts';
import { showResults, VERSION_TEXTS } from '../../ui/versions/version-texts.ts';
import { PipelineChecklist } from './PipelineChecklist.tsx';
import { UpdateReportTable } from './UpdateReportTable.tsx';
import { massLock, massUpdate, updatePayloadOf, updatesKeys, usePipelineList } from './updates-api.ts';
import { UPDATES_TEXTS } from './updates-texts.ts';
import './updates.css';

/** Payloads sent per mass-update call, so the progress moves while a long update runs. */
const UPDATE_BATCH = 10;

/** A refused entry as its toast reads it: 'name, version v : error'. */
const bulkErrorText = (e: BulkError) => VERSION_TEXTS.bulkError(e, e.error);

/** The checked entries, masters first (a country's update follows its master's). */
const checkedOf = (masters: readonly MassComputeEntry[], country: readonly MassComputeEntry[], checked: ReadonlySet<string>) =>
  [...masters, ...country].filter((e) => checked.has(e.doc._id));

/** Sends the payloads in batches, one after the other, telling how many are done; answers every result together. */
async function updateInBatches(entries: readonly MassComputeEntry[], onDone: (done: number) => void) {
  const all: PipelineUpdateAnswer = { success: [], jobs: [], errors: [] };
  for (let i = 0; i < entries.length; i += UPDATE_BATCH) {
    const batch = entries.slice(i, i + UPDATE_BATCH);
    const answer = await massUpdate(batch.map(updatePayloadOf));
    all.success.push(...answer.success);
    all.jobs.push(...answer.jobs);
    all.errors.push(...answer.errors);
    onDone(i + batch.length);
  }
  return all;
}

/** 'Update version': the update list (500 px) with check-all and counts, 'Start update', the selected pipeline's report. */
function UpdateTab() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const list = usePipelineList('update');
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const masters = list.data?.pipelines.masters ?? [];
  const country = list.data?.pipelines.country ?? [];
  const report = [...masters, ...country].find((e) => e.doc._id === selected)?.report ?? null;

  const start = async () => {
    const entries = checkedOf(masters, country, checked);
    setProgress({ done: 0, total: entries.length });
    try {
      const answer = await updateInBatches(entries, (done) => setProgress({ done, total: entries.length }));
      const texts = answer.success.map((s) => VERSION_TEXTS.updated(s.name, s.old_version, s.new_version));
      showResults(texts, answer.errors.map(bulkErrorText), message.success, message.error);
      setChecked(new Set());
      setSelected(null);
    } catch (error) {
      showFailure(error, message.error);
    } finally {
      setProgress(null);
      await client.invalidateQueries({ queryKey: updatesKeys.all });
    }
  };

  return (
    <div className="gdb-updates">
      <aside className="gdb-updates-left" aria-label="Pipelines to update">
        <ListState list={list}>
          <PipelineChecklist
            masters={masters}
            country={country}
            checked={checked}
            onChange={setChecked}
            selected={selected}
            onSelect={setSelected}
            disabled={progress !== null}
            allLabel={UPDATES_TEXTS.checkAll}
          />
        </ListState>
        <Button type="primary" disabled={checked.size === 0 || progress !== null} onClick={() => void start()}>
          {UPDATES_TEXTS.startUpdate}
        </Button>
        {progress && (
          <Progress
            aria-label={UPDATES_TEXTS.progress(progress.done, progress.total)}
            percent={Math.round((progress.done / Math.max(progress.total, 1)) * 100)}
            format={() => UPDATES_TEXTS.progress(progress.done, progress.total)}
          />
        )}
      </aside>
      <section className="gdb-updates-right" aria-label="Update report">
        {report ? <UpdateReportTable report={report} /> : <Empty description={UPDATES_TEXTS.choose} />}
      </section>
    </div>
  );
}

/** 'Lock version': the lock list with toggle-all and 'Start lock'. */
function LockTab() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const list = usePipelineList('lock');
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [locking, setLocking] = useState(false);
  const masters = list.data?.pipelines.masters ?? [];
  const country = list.data?.pipelines.country ?? [];

  const start = async () => {
    setLocking(true);
    try {
      const answer = await massLock(checkedOf(masters, country, checked).map((e) => e.doc._id));
      showResults(
        answer.success.map((s) => VERSION_TEXTS.locked(s.version)),
        answer.errors.map(bulkErrorText),
        message.success,
        message.error,
      );
      setChecked(new Set());
    } catch (error) {
      showFailure(error, message.error);
    } finally {
      setLocking(false);
      await client.invalidateQueries({ queryKey: updatesKeys.all });
    }
  };

  return (
    <section className="gdb-updates-left" aria-label="Pipelines to lock">
      <ListState list={list}>
        <PipelineChecklist
          masters={masters}
          country={country}
          checked={checked}
          onChange={setChecked}
          disabled={locking}
          allLabel={UPDATES_TEXTS.toggleAll}
        />
      </ListState>
      <Button type="primary" disabled={checked.size === 0} loading={locking} onClick={() => void start()}>
        {UPDATES_TEXTS.startLock}
      </Button>
    </section>
  );
}

/** A list while it loads, when it failed (with the pipelines whose report failed), or shown. */
function ListState({ list, children }: { list: ReturnType<typeof usePipelineList>; children: ReactNode }) {
  if (list.error) return <Typography.Text type="danger">{errorText(list.error)}</Typography.Text>;
  if (!list.data)
    return (
      <div role="status" aria-label="Loading the pipelines">
        <Spin />
      </div>
    );
  return (
    <>
      {children}
      {list.data.errors.map((e) => (
        <Typography.Text key={`${e.name}-${e.version}-${e.error}`} type="danger">
          {VERSION_TEXTS.bulkError(e, e.error)}
        </Typography.Text>
      ))}
    </>
  );
}

/** Updates (/manage/update-lock-pipeline): update or lock many pipelines at once (docs/product.md §18.6). */
export function UpdatesPage() {
  return (
    <Tabs
      destroyOnHidden
      items={[
        { key: 'update', label: UPDATES_TEXTS.updateTab, children: <UpdateTab /> },
        { key: 'lock', label: UPDATES_TEXTS.lockTab, children: <LockTab /> },
      ]}
    />
  );
}
