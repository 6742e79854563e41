import { selectableTags, TAG_SELECTOR } from '@gdb/shared/tags/tag-selector';
import { Checkbox, Empty } from 'antd';
import { BadgeChip } from './BadgeChip.tsx';
import './tags.css';

/** What a selector needs of a badge. */
export interface SelectableTag {
  _id: string;
  name: string;
  isHidden: boolean;
  color?: string | null;
}

export interface TagSelectorProps {
  tags: readonly SelectableTag[];
  /** The selected badge ids; ids the selector does not offer are kept as they are. */
  value: readonly string[];
  onChange: (ids: string[]) => void;
  label?: string;
  /** Fixed box height (default 290); ignored when maxHeight is given. */
  height?: number;
  maxHeight?: number;
  showSelectAll?: boolean;
  disabled?: boolean;
}

/**
 * A list of badges to tick (docs/product.md §7.3): sorted by name ignoring case, hidden badges
 * left out, a 'Select all' box, 'No tags' when there is nothing to offer.
 */
export function TagSelector({
  tags,
  value,
  onChange,
  label,
  height = TAG_SELECTOR.boxHeight,
  maxHeight,
  showSelectAll = true,
  disabled = false,
}: TagSelectorProps) {
  const offered = selectableTags(tags);
  const offeredIds = new Set(offered.map((t) => t._id));
  const selected = new Set(value);
  const ticked = offered.filter((t) => selected.has(t._id)).length;
  const kept = value.filter((id) => !offeredIds.has(id));

  const toggle = (id: string, on: boolean) => {
    const next = on ? [...value, id] : value.filter((v) => v !== id);
    onChange([...new Set(next)]);
  };
  const toggleAll = (on: boolean) => onChange(on ? [...new Set([...kept, ...offeredIds])] : kept);
  const box = maxHeight !== undefined ? { maxHeight } : { height };

  return (
    <fieldset className="gdb-tag-selector">
      {label ? <legend className="gdb-tag-selector-label">{label}</legend> : null}
      {showSelectAll && offered.length > 0 ? (
        <Checkbox
          className="gdb-tag-selector-all"
          checked={ticked === offered.length}
          indeterminate={ticked > 0 && ticked < offered.length}
          disabled={disabled}
          onChange={(e) => toggleAll(e.target.checked)}
        >
          {TAG_SELECTOR.selectAll}
        </Checkbox>
      ) : null}
      <div className="gdb-tag-selector-box" style={box}>
        {offered.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={TAG_SELECTOR.noTags} />
        ) : (
          offered.map((tag) => (
            <Checkbox
              key={tag._id}
              className="gdb-tag-selector-item"
              checked={selected.has(tag._id)}
              disabled={disabled}
              onChange={(e) => toggle(tag._id, e.target.checked)}
            >
              <BadgeChip name={tag.name} color={tag.color ?? null} />
            </Checkbox>
          ))
        )}
      </div>
    </fieldset>
  );
}
