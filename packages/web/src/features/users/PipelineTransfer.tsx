import type { AssignablePipeline } from '@gdb/shared/users/users.schemas';
import { Switch, Transfer } from 'antd';
import { useDomRepair } from '../../ui/useDomRepair.ts';
import type { Assignments } from './user-form.ts';

interface Item {
  key: string;
  title: string;
}

/**
 * Names the transfer's checkboxes, which antd renders without one: each pipeline's by its line,
 * each list's select-all box by the list's title.
 */
function nameTransferBoxes(root: HTMLElement): void {
  for (const box of root.querySelectorAll<HTMLInputElement>('input[type=checkbox]')) {
    const item = box.closest('li');
    const title = box.closest('[class*="-header"]')?.querySelector('[class*="-header-title"]')?.textContent?.trim();
    const name = item ? `Select ${item.textContent?.trim() ?? ''}` : title ? `Select all: ${title}` : null;
    if (name && box.getAttribute('aria-label') !== name) box.setAttribute('aria-label', name);
  }
}

/** A pipeline's line in the transfer view. */
function pipelineLabel(p: AssignablePipeline): string {
  return `${p.isMaster ? '[M] ' : ''}${p.name} (v.${p.version})`;
}

export interface PipelineTransferProps {
  pipelines: readonly AssignablePipeline[];
  value: Assignments;
  onChange: (value: Assignments) => void;
  loading?: boolean;
}

/**
 * The user's pipelines (docs/product.md §6.2): every pipeline against the assigned ones, with a search
 * filter and select-all, an active toggle per assigned pipeline and one for all of them.
 */
export function PipelineTransfer({ pipelines, value, onChange, loading = false }: PipelineTransferProps) {
  const items: Item[] = pipelines.map((p) => ({ key: p._id, title: pipelineLabel(p) }));
  const assigned = Object.keys(value);
  const allActive = assigned.length > 0 && assigned.every((id) => value[id]?.isActive);

  const move = (keys: React.Key[]) => {
    const next: Assignments = {};
    for (const key of keys.map(String)) next[key] = value[key] ?? { isActive: true };
    onChange(next);
  };
  const setActive = (id: string, isActive: boolean) => onChange({ ...value, [id]: { isActive } });
  const setAll = (isActive: boolean) => onChange(Object.fromEntries(assigned.map((id) => [id, { isActive }])));
  const frame = useDomRepair<HTMLDivElement>(nameTransferBoxes);

  return (
    <div className="gdb-pipeline-transfer" ref={frame}>
      <div className="gdb-pipeline-transfer-all">
        <Switch
          size="small"
          checked={allActive}
          disabled={assigned.length === 0}
          onChange={setAll}
          aria-label="All pipelines active"
        />{' '}
        All pipelines active
      </div>
      <Transfer<Item>
        dataSource={items}
        targetKeys={assigned}
        onChange={move}
        showSearch
        filterOption={(input, item) => item.title.toLowerCase().includes(input.trim().toLowerCase())}
        titles={['All pipelines', 'User pipelines']}
        locale={{ searchPlaceholder: 'Search pipeline' }}
        disabled={loading}
        styles={{ section: { width: 340, height: 300 } }}
        render={(item) =>
          value[item.key] ? (
            <span className="gdb-pipeline-assigned">
              {/* The switch works on its own: it neither selects nor moves the pipeline. */}
              {/* biome-ignore lint/a11y/noStaticElementInteractions: only stops the click from reaching the row */}
              {/* biome-ignore lint/a11y/useKeyWithClickEvents: the switch inside handles the keyboard */}
              <span onClick={(e) => e.stopPropagation()}>
                <Switch
                  size="small"
                  checked={value[item.key]?.isActive ?? false}
                  onChange={(on) => setActive(item.key, on)}
                  aria-label={`Active: ${item.title}`}
                />
              </span>{' '}
              {item.title}
            </span>
          ) : (
            item.title
          )
        }
      />
    </div>
  );
}
