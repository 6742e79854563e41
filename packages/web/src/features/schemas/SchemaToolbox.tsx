import {
  CopyOutlined,
  DownloadOutlined,
  EditOutlined,
  EyeOutlined,
  FileAddOutlined,
  ImportOutlined,
  RedoOutlined,
  SaveOutlined,
  SnippetsOutlined,
  UndoOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, Space, Typography } from 'antd';
import { type ReactNode, useRef } from 'react';
import type { NodeAction } from './node-menu.ts';

/** The document actions of the toolbar, each with whether it is offered now. */
export interface DocumentActions {
  onNew: () => void;
  onSave: (() => void) | null;
  saving: boolean;
  onUndo: (() => void) | null;
  onRedo: (() => void) | null;
  onImportSchema: (() => void) | null;
  onImportExample: (() => void) | null;
  onImportSeveral: () => void;
  onEditJson: (() => void) | null;
  onCopy: (() => void) | null;
  onPaste: (() => void) | null;
  onDownload: (() => void) | null;
  onShowUi: (() => void) | null;
}

function Action({
  icon,
  label,
  onClick,
  loading,
}: {
  icon: ReactNode;
  label: string;
  onClick: (() => void) | null;
  loading?: boolean;
}) {
  return (
    <Button icon={icon} disabled={!onClick} loading={loading} onClick={() => onClick?.()}>
      {label}
    </Button>
  );
}

/** The toolbar of the data model: new, save, undo and redo, imports, Edit json, copy, paste, download, Show UI. */
export function SchemaToolbar(a: DocumentActions) {
  return (
    <Space wrap role="toolbar" aria-label="Schema" className="gdb-schema-toolbar">
      <Action icon={<FileAddOutlined />} label="New schema" onClick={a.onNew} />
      <Action icon={<SaveOutlined />} label="Save" onClick={a.onSave} loading={a.saving} />
      <Action icon={<UndoOutlined />} label="Undo" onClick={a.onUndo} />
      <Action icon={<RedoOutlined />} label="Redo" onClick={a.onRedo} />
      <Action icon={<UploadOutlined />} label="Import schema" onClick={a.onImportSchema} />
      <Action icon={<ImportOutlined />} label="Import example" onClick={a.onImportExample} />
      <Action icon={<UploadOutlined />} label="Import several schemas" onClick={a.onImportSeveral} />
      <Action icon={<EditOutlined />} label="Edit json" onClick={a.onEditJson} />
      <Action icon={<CopyOutlined />} label="Copy" onClick={a.onCopy} />
      <Action icon={<SnippetsOutlined />} label="Paste" onClick={a.onPaste} />
      <Action icon={<DownloadOutlined />} label="Download" onClick={a.onDownload} />
      <Action icon={<EyeOutlined />} label="Show UI" onClick={a.onShowUi} />
    </Space>
  );
}

/**
 * An action with a list (Append …): its menu, and once an entry is picked the focus back on the
 * button, where the keyboard can append another, rather than on the page the menu leaves.
 */
function MenuAction({ action, onAction }: { action: NodeAction; onAction: (key: string) => void }) {
  const button = useRef<HTMLButtonElement>(null);
  return (
    <Dropdown
      disabled={action.disabled}
      trigger={['click']}
      menu={{
        items: (action.children ?? []).map((c) => ({ key: c.key, label: c.label, disabled: c.disabled })),
        onClick: ({ key }) => {
          onAction(key);
          setTimeout(() => button.current?.focus());
        },
      }}
    >
      <Button ref={button} disabled={action.disabled}>
        {action.label} …
      </Button>
    </Dropdown>
  );
}

/** The toolbox: the actions of the selected node as buttons (the same as its context menu), Append listing the node types it takes. */
export function SchemaToolbox({
  nodeLabel,
  actions,
  onAction,
}: {
  nodeLabel: string | null;
  actions: NodeAction[];
  onAction: (key: string) => void;
}) {
  return (
    <section className="gdb-schema-toolbox" aria-label="Toolbox">
      <Typography.Text strong>{nodeLabel ? `Node: ${nodeLabel}` : 'Select a node in the tree'}</Typography.Text>
      <Space wrap>
        {actions.map((action) =>
          action.children ? (
            <MenuAction key={action.key} action={action} onAction={onAction} />
          ) : (
            <Button key={action.key} disabled={action.disabled} onClick={() => onAction(action.key)}>
              {action.label}
            </Button>
          ),
        )}
      </Space>
    </section>
  );
}
