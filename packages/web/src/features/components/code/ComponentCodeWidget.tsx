import { ApiOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useState } from 'react';
import type { Widget, WidgetProps } from '../../../ui/forms/context.ts';
import { useForm } from '../../../ui/forms/context.ts';
import { BUILT_IN_WIDGETS } from '../../../ui/forms/widgets.tsx';
import { CodeDialog } from './CodeDialog.tsx';
import { codeContext } from './code-context.ts';
import { CODE_TEXTS } from './code-texts.ts';
import { SdkDialog } from './SdkDialog.tsx';

const PlainCode = BUILT_IN_WIDGETS.code as Widget;

/** The component form's code field: the editor, plus the large code dialog and the SDK dialog. */
export function ComponentCodeWidget(props: WidgetProps) {
  const { store } = useForm();
  const [open, setOpen] = useState<'code' | 'sdk' | null>(null);
  if (props.field.type !== 'string') return <PlainCode {...props} />;
  const readOnly = props.disabled || props.readOnly;
  const context = open === 'code' ? codeContext(props.path, (p) => store.get(p)) : null;
  return (
    <div className="gdb-component-code">
      <Space size="small" className="gdb-component-code-bar">
        <Button size="small" icon={<EditOutlined />} onClick={() => setOpen('code')}>
          {CODE_TEXTS.editCode}
        </Button>
        <Button size="small" icon={<ApiOutlined />} onClick={() => setOpen('sdk')}>
          {CODE_TEXTS.sdk}
        </Button>
      </Space>
      <PlainCode {...props} />
      {context && (
        <CodeDialog
          title={context.title}
          code={typeof props.value === 'string' ? props.value : ''}
          readOnly={readOnly}
          inputs={context.inputs}
          outputs={context.outputs}
          confirmText={context.link ? CODE_TEXTS.ok : CODE_TEXTS.save}
          onConfirm={(code) => {
            props.onChange(code);
            setOpen(null);
          }}
          onClose={() => setOpen(null)}
        />
      )}
      {open === 'sdk' && <SdkDialog used={stringList(store.get(['sdk']))} onClose={() => setOpen(null)} />}
    </div>
  );
}

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
