import { javascript } from '@codemirror/lang-javascript';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { ConfigProvider } from 'antd';
import { basicSetup } from 'codemirror';
import { useContext, useEffect, useRef } from 'react';
import type { CodeEditorProps } from './code-editor-props.ts';

/**
 * What changes without rebuilding the editor: whether it takes edits, and its accessible attributes.
 * A read-only editor stays focusable (read-only state, not `editable: false`), so the keyboard can
 * reach, scroll and copy its code; it says it is read-only.
 */
function settings(props: CodeEditorProps) {
  // tabindex: the content is focusable as it is editable, and says so to checkers (axe) that look
  // for a focusable element inside the scrolling region.
  const attributes: Record<string, string> = { 'aria-label': props.label, tabindex: '0' };
  if (props.id) attributes.id = props.id;
  if (props.invalid) attributes['aria-invalid'] = 'true';
  if (props.readOnly) attributes['aria-readonly'] = 'true';
  return [EditorState.readOnly.of(props.readOnly), EditorView.contentAttributes.of(attributes)];
}

/**
 * A JavaScript editor (CodeMirror 6, light theme, no minimap): its style sheet carries the page's
 * CSP nonce, which antd's ConfigProvider holds. Loaded only through LazyCodeEditor.
 */
export function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const live = useRef(new Compartment());
  const latest = useRef(props);
  latest.current = props;
  const nonce = useContext(ConfigProvider.ConfigContext).csp?.nonce;

  useEffect(() => {
    if (!host.current) return;
    const created = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          basicSetup,
          javascript(),
          EditorView.cspNonce.of(nonce ?? ''),
          EditorView.lineWrapping,
          live.current.of(settings(latest.current)),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) latest.current.onChange(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
  }, [nonce]);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== props.value) {
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value } });
    }
  }, [props.value]);

  useEffect(() => {
    view.current?.dispatch({ effects: live.current.reconfigure(settings(props)) });
  }, [props]);

  const size = props.height ? `gdb-code-editor gdb-code-${props.height}` : 'gdb-code-editor';
  return <div ref={host} className={props.invalid ? `${size} gdb-code-invalid` : size} data-testid="code-editor" />;
}
