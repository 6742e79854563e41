import type { VersionRecord } from '@gdb/shared/versions/versions.schemas';
import {
  type Edge,
  Handle,
  type Node,
  type NodeChange,
  type NodeProps,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { layoutVersions, VERSION_NODE, versionEdges } from './version-layout.ts';

/** Auto-fit of the graph (docs/product.md §18.10): padding 20, zoom at most 1.5, 100 ms after drawing. */
const GRAPH_FIT = { padding: '20px', maxZoom: 1.5 } as const;
const FIT_DELAY_MS = 100;

type VersionNode = Node<{ record: VersionRecord; current: boolean }, 'version'>;

const when = (record: VersionRecord) => dayjs(record.lastUpdateDate).format('YYYY-MM-DD HH:mm:ss');

/** One version: 'V {version}' and the date and time of its last update; Prod and Draft styled apart. */
function VersionBox({ data, selected }: NodeProps<VersionNode>) {
  const { record, current } = data;
  const classes = [
    'gdb-version-node',
    record.vLocked ? 'gdb-version-node--prod' : 'gdb-version-node--draft',
    current ? 'gdb-version-node--current' : '',
    selected ? 'gdb-version-node--selected' : '',
  ];
  return (
    <div className={classes.join(' ').trim()}>
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <strong>V {record.version}</strong>
      <span>{when(record)}</span>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

const nodeTypes = { version: VersionBox };

// Where the edges meet a box before the browser measures it (and in tests, where it never does).
const HANDLES = [
  { type: 'target' as const, position: Position.Top, x: VERSION_NODE.width / 2, y: 0, width: 1, height: 1 },
  { type: 'source' as const, position: Position.Bottom, x: VERSION_NODE.width / 2, y: VERSION_NODE.height, width: 1, height: 1 },
];

function nodeOf(record: VersionRecord, place: { x: number; y: number } | undefined, currentId: string): VersionNode {
  const state = record.vLocked ? 'Prod' : 'Draft';
  const current = record._id === currentId;
  return {
    id: record._id,
    type: 'version',
    position: place ?? { x: 0, y: 0 },
    data: { record, current },
    ...VERSION_NODE,
    handles: HANDLES,
    ariaLabel: `V ${record.version} - ${state}, ${when(record)}${current ? ', current version' : ''}`,
  };
}

export interface VersionGraphProps {
  versions: readonly VersionRecord[];
  currentId: string;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  /** Double-click: open this version. */
  onOpen: (id: string) => void;
}

function Graph({ versions, currentId, selectedId, onSelect, onOpen }: VersionGraphProps) {
  const [placed, setPlaced] = useState<VersionNode[]>([]);
  const { fitView } = useReactFlow();
  useEffect(() => {
    let live = true;
    void layoutVersions(versions).then((places) => {
      if (live) setPlaced(versions.map((v) => nodeOf(v, places.get(v._id), currentId)));
    });
    return () => {
      live = false;
    };
  }, [versions, currentId]);
  useEffect(() => {
    if (placed.length === 0) return;
    const timer = setTimeout(() => void fitView(GRAPH_FIT), FIT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [placed, fitView]);

  const nodes = useMemo(() => placed.map((n) => ({ ...n, selected: n.id === selectedId })), [placed, selectedId]);
  const edges = useMemo<Edge[]>(() => (placed.length ? versionEdges(versions) : []), [placed, versions]);
  const changed = (changes: NodeChange<VersionNode>[]) => {
    for (const c of changes) if (c.type === 'select' && c.selected) onSelect(c.id);
  };
  // Enter on a focused node selects it (React Flow); Enter again opens it, as a double-click does.
  const enter = (event: React.KeyboardEvent) => {
    const id = event.target instanceof HTMLElement ? event.target.dataset.id : undefined;
    if (event.key === 'Enter' && id && id === selectedId) onOpen(id);
  };
  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      onNodesChange={changed}
      onNodeDoubleClick={(_, node) => onOpen(node.id)}
      onKeyDown={enter}
      nodesDraggable={false}
      nodesConnectable={false}
      edgesFocusable={false}
      zoomOnDoubleClick={false}
      deleteKeyCode={null}
      // The library's attribution link is grey on white under its contrast limit; its MIT licence lets it go (docs/decisions.md).
      proOptions={HIDDEN_ATTRIBUTION}
      aria-label="Versions"
    />
  );
}

/** React Flow's attribution link left out (docs/decisions.md, "The diagram library's attribution"). */
const HIDDEN_ATTRIBUTION = { hideAttribution: true } as const;

/** The family's version graph, laid out by elkjs and drawn by React Flow (loaded lazily). */
export function VersionGraph(props: VersionGraphProps) {
  return (
    <ReactFlowProvider>
      <Graph {...props} />
    </ReactFlowProvider>
  );
}
