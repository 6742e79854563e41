import { EditOutlined, LockOutlined } from '@ant-design/icons';
import type { MassComputeEntry } from '@gdb/shared/pipelines/pipeline-versions.schemas';
import { Checkbox, Typography } from 'antd';
import { UPDATES_TEXTS } from './updates-texts.ts';

export interface PipelineChecklistProps {
  masters: readonly MassComputeEntry[];
  country: readonly MassComputeEntry[];
  checked: ReadonlySet<string>;
  onChange: (checked: ReadonlySet<string>) => void;
  /** The row whose details show on the right (update list). */
  selected?: string | null;
  onSelect?: (id: string) => void;
  disabled: boolean;
  /** The label of the box that checks every row. */
  allLabel: string;
}

/** Version number and lock icon of a pipeline version (the screen is for managers and super-admins). */
function VersionMark({ doc }: { doc: MassComputeEntry['doc'] }) {
  return (
    <span className="gdb-updates-version">
      v{doc.version} {doc.vLocked ? <LockOutlined aria-label="locked" /> : <EditOutlined aria-label="draft" />}
    </span>
  );
}

/** The check-all box with its counts, then the masters and the countries apart, each row checkable. */
export function PipelineChecklist({
  masters,
  country,
  checked,
  onChange,
  selected,
  onSelect,
  disabled,
  allLabel,
}: PipelineChecklistProps) {
  const all = [...masters, ...country];
  const count = all.filter((e) => checked.has(e.doc._id)).length;
  const toggle = (id: string, on: boolean) => {
    const next = new Set(checked);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  const group = (title: string, entries: readonly MassComputeEntry[]) => (
    <section aria-label={title} className="gdb-updates-group">
      <Typography.Text strong>{title}</Typography.Text>
      {entries.length === 0 && <Typography.Text type="secondary">{UPDATES_TEXTS.none}</Typography.Text>}
      <ul>
        {entries.map((e) => (
          <li key={e.doc._id} className={e.doc._id === selected ? 'gdb-updates-selected' : undefined}>
            <Checkbox
              aria-label={`${e.doc.name} v${e.doc.version}`}
              checked={checked.has(e.doc._id)}
              disabled={disabled}
              onChange={(ev) => toggle(e.doc._id, ev.target.checked)}
            />
            <button type="button" className="gdb-updates-name" onClick={() => onSelect?.(e.doc._id)}>
              {e.doc.name}
            </button>
            <VersionMark doc={e.doc} />
          </li>
        ))}
      </ul>
    </section>
  );
  return (
    <div className="gdb-updates-list">
      <Checkbox
        checked={all.length > 0 && count === all.length}
        indeterminate={count > 0 && count < all.length}
        disabled={disabled || all.length === 0}
        onChange={(ev) => onChange(new Set(ev.target.checked ? all.map((e) => e.doc._id) : []))}
      >
        {allLabel}
      </Checkbox>
      <Typography.Text>{UPDATES_TEXTS.counts(count, masters.length, country.length)}</Typography.Text>
      {group(UPDATES_TEXTS.masters, masters)}
      {group(UPDATES_TEXTS.countries, country)}
    </div>
  );
}
