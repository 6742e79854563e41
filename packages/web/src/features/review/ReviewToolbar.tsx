import type { Review } from '@gdb/shared/uploads/review.schemas';
import { AutoComplete, Button, Input, Select, Space, Switch } from 'antd';
import { useId, useState } from 'react';
import type { ReviewFilter } from './api.ts';

interface ReviewToolbarProps {
  counts: Omit<Review, 'rows'>;
  filter: ReviewFilter;
  onFilter: (filter: ReviewFilter) => void;
  onReplace: (field: string, find: string, by: string) => number;
}

/** The review's filters (all rows or those with a problem, by column, by problem) and its find-and-replace in a column. */
export function ReviewToolbar({ counts, filter, onFilter, onReplace }: ReviewToolbarProps) {
  const id = useId();
  const [message, setMessage] = useState(filter.message ?? '');
  const [column, setColumn] = useState<string | undefined>(undefined);
  const [find, setFind] = useState('');
  const [by, setBy] = useState('');
  const [replaced, setReplaced] = useState<string | null>(null);
  const fieldOptions = counts.fields.map((f) => {
    const n = counts.fieldProblems.find((p) => p.field === f)?.count ?? 0;
    return { value: f, label: n > 0 ? `${f} (${n})` : f };
  });
  return (
    <>
      <div className="gdb-review-toolbar">
        <label htmlFor={`${id}-all`}>
          <Space>
            <Switch id={`${id}-all`} size="small" checked={filter.all} onChange={(all) => onFilter({ ...filter, all })} />
            Show all rows
          </Space>
        </label>
        <Select
          aria-label="Filter by column"
          placeholder="Filter by column"
          allowClear
          style={{ minWidth: 200 }}
          value={filter.field}
          options={fieldOptions.filter((o) => counts.fieldProblems.some((p) => p.field === o.value))}
          onChange={(field?: string) => onFilter({ ...filter, field })}
        />
        <AutoComplete
          aria-label="Filter by problem"
          placeholder="Filter by problem"
          allowClear
          style={{ minWidth: 280 }}
          value={message}
          options={counts.messageKinds.map((k) => ({ value: k.kind, label: `${k.kind} (${k.count})` }))}
          onChange={(v?: string) => setMessage(v ?? '')}
          onSelect={(v?: string) => onFilter({ ...filter, message: v })}
          onClear={() => onFilter({ ...filter, message: undefined })}
          onKeyDown={(e) => {
            if (e.key === 'Enter') onFilter({ ...filter, message: message || undefined });
          }}
        />
      </div>
      <div className="gdb-review-toolbar">
        <Select
          aria-label="Column to replace in"
          placeholder="Column"
          style={{ minWidth: 160 }}
          value={column}
          options={counts.fields.map((f) => ({ value: f, label: f }))}
          onChange={setColumn}
        />
        <Input
          aria-label="Find"
          placeholder="Find"
          style={{ width: 180 }}
          value={find}
          onChange={(e) => setFind(e.target.value)}
        />
        <Input
          aria-label="Replace with"
          placeholder="Replace with"
          style={{ width: 180 }}
          value={by}
          onChange={(e) => setBy(e.target.value)}
        />
        <Button
          disabled={!column || find === ''}
          onClick={() => {
            if (!column) return;
            const n = onReplace(column, find, by);
            setReplaced(`${n} ${n === 1 ? 'cell' : 'cells'} replaced.`);
          }}
        >
          Replace
        </Button>
        <span role="status">{replaced}</span>
      </div>
    </>
  );
}
