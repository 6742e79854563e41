import { Descriptions, Empty, Typography } from 'antd';
import type { ReactNode } from 'react';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const RENDERED = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array', 'null']);

function typeText(s: Json): string {
  if (typeof s.$ref === 'string') return `reference to ${s.$ref}`;
  for (const k of ['allOf', 'anyOf', 'oneOf', 'not']) if (k in s) return k;
  const t = Array.isArray(s.type) ? s.type.join(' | ') : String(s.type ?? 'object');
  const format = typeof s.format === 'string' ? ` (${s.format})` : '';
  return `${t}${format}`;
}

/** The fields of one object level: label, type and whether they are required; nested objects below their field. */
function Fields({ schema, depth }: { schema: Json; depth: number }): ReactNode {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const entries = Object.entries(props);
  if (entries.length === 0) return <Typography.Text type="secondary">No fields</Typography.Text>;
  return (
    <Descriptions column={1} size="small" bordered className={depth > 0 ? 'gdb-schema-preview-nested' : undefined}>
      {entries.map(([name, value]) => {
        const s = isObject(value) ? value : {};
        const label = typeof s.title === 'string' && s.title ? s.title : name;
        const type = typeof s.type === 'string' ? s.type : null;
        const items = isObject(s.items) ? s.items : null;
        return (
          <Descriptions.Item key={name} label={`${label}${required.includes(name) ? ' *' : ''}`}>
            {type && !RENDERED.has(type) ? (
              <Typography.Text type="danger">No renderer for type {type}</Typography.Text>
            ) : (
              <span>
                {typeText(s)}
                {required.includes(name) ? ', required' : ''}
                {items ? `, items: ${typeText(items)}` : ''}
              </span>
            )}
            {type === 'object' && <Fields schema={s} depth={depth + 1} />}
            {items && items.type === 'object' && <Fields schema={items} depth={depth + 1} />}
          </Descriptions.Item>
        );
      })}
    </Descriptions>
  );
}

/** The form the data model gives, shown read-only: each field's label, type and required mark. */
export function SchemaFormPreview({ schema }: { schema: Json }) {
  if (!isObject(schema) || Object.keys(schema).length === 0) return <Empty description="The schema is empty." />;
  const root = schema.type === 'array' && isObject(schema.items) ? schema.items : schema;
  if (!isObject(root.properties)) return <Typography.Text>{typeText(root)}</Typography.Text>;
  return <Fields schema={root} depth={0} />;
}
