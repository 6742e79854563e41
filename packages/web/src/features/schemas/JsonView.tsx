import { jsonText, treeToJson } from '@gdb/shared/schemas/schema-json';
import type { SchemaNode } from '@gdb/shared/schemas/schema-nodes';
import { Input } from 'antd';
import { useEffect, useId, useState } from 'react';

/** How long after a change the JSON text fills. */
const JSON_FILL_DELAY_MS = 250;

/** The JSON text of the data model (4 spaces), filled 250 ms after the tree last changed. */
export function JsonView({ root, height }: { root: SchemaNode; height: number }) {
  const id = useId();
  const [text, setText] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setText(jsonText(treeToJson(root))), JSON_FILL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [root]);
  return (
    <div className="gdb-schema-json">
      <label htmlFor={id} className="gdb-sr-only">
        JSON schema
      </label>
      <Input.TextArea id={id} readOnly value={text} className="gdb-schema-json-text" style={{ height }} spellCheck={false} />
    </div>
  );
}
