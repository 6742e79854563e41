import { Input } from 'antd';
import { lazy, Suspense } from 'react';
import type { CodeEditorProps } from './code-editor-props.ts';
import './code.css';

const CodeEditor = lazy(() => import('./CodeEditor.tsx').then((m) => ({ default: m.CodeEditor })));

/** The JavaScript editor, fetched the first time one is shown (the sign-in and explorer pages never load it). */
export function LazyCodeEditor(props: CodeEditorProps) {
  return (
    <Suspense
      fallback={<Input.TextArea className="gdb-code-loading" aria-label={props.label} value={props.value} readOnly rows={4} />}
    >
      <CodeEditor {...props} />
    </Suspense>
  );
}
