import type { ComponentHierarchy, HierarchyComponent } from '@gdb/shared/components/hierarchy.schemas';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Spin, Tag } from 'antd';
import { errorText } from '../../ground/request/failure.ts';
import { componentHierarchy } from './api.ts';

const label = (c: HierarchyComponent) => `${c.name} (v.${c.version} - ${c.vLocked ? 'Prod' : 'Draft'})`;

function Entry({ c, onOpen }: { c: HierarchyComponent; onOpen: (id: string) => void }) {
  return (
    <li>
      <Tag>{c.type}</Tag>
      <Button type="link" size="small" className="gdb-component-crumb" onClick={() => onOpen(c.key)}>
        {label(c)}
      </Button>
    </li>
  );
}

function Group({ title, items, onOpen }: { title: string; items: HierarchyComponent[]; onOpen: (id: string) => void }) {
  if (items.length === 0) return null;
  return (
    <section aria-label={title}>
      <strong>{title}</strong>
      <ul className="gdb-hierarchy-list">
        {items.map((c) => (
          <Entry key={c.key} c={c} onOpen={onOpen} />
        ))}
      </ul>
    </section>
  );
}

function Hierarchy({ data, onOpen }: { data: ComponentHierarchy; onOpen: (id: string) => void }) {
  const of = (cls: HierarchyComponent['class_name']) => data.components.filter((c) => c.class_name === cls);
  return (
    <div className="gdb-hierarchy">
      <Group title="Used by" items={of('user')} onOpen={onOpen} />
      <Group title="Runs" items={of('dependency')} onOpen={onOpen} />
      {data.pipelines.length > 0 && (
        <section aria-label="Pipelines">
          <strong>Pipelines</strong>
          <ul className="gdb-hierarchy-list">
            {data.pipelines.map((p) => (
              <li key={p.key}>
                <a href={`/manage/pipeline?id=${encodeURIComponent(p.key)}`}>
                  {p.name} (v.{p.version} - {p.vLocked ? 'Prod' : 'Draft'})
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** The dependency hierarchy of the open version: the components running it, those it runs, the pipelines above. */
export function HierarchyView({ id, onOpen }: { id: string; onOpen: (id: string) => void }) {
  const hierarchy = useQuery({
    queryKey: ['components', 'dependencies', id],
    queryFn: ({ signal }) => componentHierarchy(id, signal),
    retry: false,
  });
  if (hierarchy.error) return <Alert type="error" showIcon title={errorText(hierarchy.error)} />;
  if (!hierarchy.data) return <Spin />;
  return <Hierarchy data={hierarchy.data} onOpen={onOpen} />;
}
