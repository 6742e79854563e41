import { Form, Input } from 'antd';
import { useId, useState } from 'react';

/** The alternate names of a field as the input shows them: separated by commas. */
const textOf = (value: unknown): string =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').join(', ') : '';

/** The names a text lists: split at commas, trimmed, each once, none empty. */
function aliasesOf(text: string): string[] {
  return [...new Set(text.split(',').map((name) => name.trim()))].filter((name) => name !== '');
}

/**
 * A field's alternate names (stored as `x-aliases`): the column names a file may give it, which
 * the upload's column matching takes for the field. Committed on Enter or when it loses focus.
 */
export function AliasesOption({
  value,
  onCommit,
}: {
  value: unknown;
  onCommit: (aliases: string[] | undefined) => string | null;
}) {
  const id = useId();
  const [text, setText] = useState(textOf(value));
  const [error, setError] = useState<string | null>(null);
  const commit = () => {
    if (text === textOf(value)) return;
    const aliases = aliasesOf(text);
    setError(onCommit(aliases.length > 0 ? aliases : undefined));
  };
  return (
    <Form.Item
      label="Alternate names"
      htmlFor={id}
      validateStatus={error ? 'error' : ''}
      help={error ?? 'Other column names a file may give this field, separated by commas.'}
    >
      <Input id={id} value={text} onChange={(e) => setText(e.target.value)} onBlur={commit} onPressEnter={commit} />
    </Form.Item>
  );
}
