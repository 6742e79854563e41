import type { SchemaListEntry } from '@gdb/shared/schemas/schemas.schemas';
import { versionLabel } from '@gdb/shared/versions/versions.schemas';
import { App, Input, Spin } from 'antd';
import { useEffect, useId, useMemo, useState } from 'react';
import { useSchemaList } from '../../ground/calls/schemas.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { ListBox } from '../../ui/ListBox.tsx';

export interface SchemaBrowserProps {
  /** The version the page shows (any version of a data model highlights it). */
  selectedId: string | null;
  /** A data model was chosen: the id of its newest version. */
  onOpen: (id: string) => void;
}

/** Newest version of each data model, sorted by name ignoring case. */
function newestByFamily(list: readonly SchemaListEntry[]): { newest: SchemaListEntry; ids: Set<string> }[] {
  const families = new Map<string, { newest: SchemaListEntry; ids: Set<string> }>();
  for (const entry of list) {
    const family = families.get(entry.familyId);
    if (!family) families.set(entry.familyId, { newest: entry, ids: new Set([entry._id]) });
    else {
      family.ids.add(entry._id);
      if (entry.version > family.newest.version) family.newest = entry;
    }
  }
  return [...families.values()].sort((a, b) => a.newest.name.localeCompare(b.newest.name, undefined, { sensitivity: 'base' }));
}

/** The data models on the left of the editor: a filter ('Filter', ignoring case) and one entry per data model. */
export function SchemaBrowser({ selectedId, onOpen }: SchemaBrowserProps) {
  const { message } = App.useApp();
  const filterId = useId();
  const list = useSchemaList();
  const [filter, setFilter] = useState('');
  useEffect(() => {
    if (list.error) showFailure(list.error, message.error);
  }, [list.error, message]);
  const families = useMemo(() => newestByFamily(list.data ?? []), [list.data]);
  const shown = families.filter((f) => f.newest.name.toLowerCase().includes(filter.trim().toLowerCase()));
  const selected = shown.find((f) => selectedId !== null && f.ids.has(selectedId));
  return (
    <div className="gdb-schema-browser">
      <label htmlFor={filterId} className="gdb-sr-only">
        Filter
      </label>
      <Input id={filterId} placeholder="Filter" allowClear value={filter} onChange={(e) => setFilter(e.target.value)} />
      {list.isPending ? (
        <Spin />
      ) : (
        <ListBox
          items={shown}
          keyOf={(f) => f.newest.familyId}
          selectedKey={selected?.newest.familyId ?? null}
          onSelect={(f) => onOpen(f.newest._id)}
          label="Data models"
          emptyText="No data model"
          className="gdb-schema-browser-list"
        >
          {(f) => (
            <span>
              {f.newest.name} <span className="gdb-schema-browser-version">{versionLabel(f.newest)}</span>
            </span>
          )}
        </ListBox>
      )}
    </div>
  );
}
