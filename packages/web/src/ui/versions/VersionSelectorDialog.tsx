import type { VersionRecord } from '@gdb/shared/versions/versions.schemas';
import { Button, Spin, Typography } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useVersionGraph, type VersionPath } from '../../ground/calls/versions.ts';
import { errorText } from '../../ground/request/failure.ts';
import { Dialog } from '../dialog/Dialog.tsx';
import { VERSION_TEXTS } from './version-texts.ts';
import './versions.css';

// The graph brings @xyflow/react and elkjs: loaded only when a dialog opens.
const VersionGraph = lazy(() => import('./VersionGraph.tsx').then((m) => ({ default: m.VersionGraph })));

export interface VersionSelectorDialogProps {
  open: boolean;
  path: VersionPath;
  /** The version the editor shows: highlighted in the graph. */
  currentId: string;
  /** A version was chosen (double-click or Open); the dialog closes. */
  onSelect: (id: string, version: number) => void;
  onClose: () => void;
  /** Called once the dialog is gone (to give the focus back). */
  afterClose?: () => void;
}

/**
 * The version selector (docs/product.md §18.1): the family's graph in a 'Select a
 * version' dialog 75% wide; double-click or Open selects, Cancel clears the selection, Close closes.
 */
export function VersionSelectorDialog({ open, path, currentId, onSelect, onClose, afterClose }: VersionSelectorDialogProps) {
  const graph = useVersionGraph(path, currentId, open);
  const [selected, setSelected] = useState<string | null>(null);
  useEffect(() => {
    if (open) setSelected(null);
  }, [open]);

  const choose = (id: string) => {
    const record = graph.data?.find((v) => v._id === id);
    if (!record) return;
    onClose();
    onSelect(record._id, record.version);
  };

  return (
    <Dialog
      open={open}
      title={VERSION_TEXTS.selectTitle}
      width="75%"
      destroyOnHidden
      onCancel={onClose}
      afterClose={afterClose}
      // The focus goes back through afterClose, and not while the question Open asks is showing.
      focusable={{ focusTriggerAfterClose: false }}
      footer={[
        <Button key="cancel" onClick={() => setSelected(null)} disabled={!selected}>
          Cancel
        </Button>,
        <Button key="close" onClick={onClose}>
          Close
        </Button>,
        <Button key="open" type="primary" disabled={!selected} onClick={() => selected && choose(selected)}>
          Open
        </Button>,
      ]}
    >
      <GraphBody
        versions={graph.data}
        error={graph.error}
        currentId={currentId}
        selectedId={selected}
        onSelect={setSelected}
        onOpen={choose}
      />
    </Dialog>
  );
}

interface GraphBodyProps {
  versions: VersionRecord[] | undefined;
  error: unknown;
  currentId: string;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  onOpen: (id: string) => void;
}

function GraphBody({ versions, error, ...rest }: GraphBodyProps) {
  if (error) return <Typography.Text type="danger">{errorText(error)}</Typography.Text>;
  const loading = (
    <div role="status" aria-label="Loading versions">
      <Spin />
    </div>
  );
  if (!versions) return loading;
  return (
    <div className="gdb-version-graph">
      <Suspense fallback={loading}>
        <VersionGraph versions={versions} {...rest} />
      </Suspense>
    </div>
  );
}
