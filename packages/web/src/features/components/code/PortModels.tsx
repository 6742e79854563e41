import { useQuery } from '@tanstack/react-query';
import { Alert, Collapse, Empty, Spin, Tree } from 'antd';
import { errorText } from '../../../ground/request/failure.ts';
import { editorKeys, schemasByIds } from '../api.ts';
import { schemaTree } from './schema-tree.ts';

/** A port as the code dialog shows it: its name and the id of its data model, if any. */
export interface PortModel {
  name: string;
  schemaId: string | null;
}

/** The data models of some ports, one collapsible tree per port name. */
export function PortModels({ label, ports }: { label: string; ports: readonly PortModel[] }) {
  const ids = [...new Set(ports.flatMap((p) => (p.schemaId ? [p.schemaId] : [])))].sort();
  const schemas = useQuery({
    queryKey: editorKeys.schemas(ids),
    queryFn: ({ signal }) => schemasByIds(ids, signal),
    retry: false,
  });
  if (schemas.error) return <Alert type="error" showIcon title={errorText(schemas.error)} />;
  if (schemas.isPending) return <Spin />;
  if (ports.length === 0) return <Empty description={`No ${label.toLowerCase()}`} />;
  const byId = new Map(schemas.data.map((s) => [s._id, s.jsonSchema]));
  return (
    <section aria-label={label} className="gdb-code-ports">
      <Collapse
        size="small"
        defaultActiveKey={ports.map((p) => p.name)}
        items={ports.map((p) => ({
          key: p.name,
          label: p.name,
          children: (
            <Tree selectable={false} defaultExpandAll treeData={[schemaTree(p.name, byId.get(p.schemaId ?? '') ?? {})]} />
          ),
        }))}
      />
    </section>
  );
}
