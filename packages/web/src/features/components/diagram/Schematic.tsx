import {
  type Edge,
  Handle,
  type Node,
  type NodeProps,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { createContext, useContext, useEffect, useState } from 'react';
import type { Diagram, DiagramBox, DiagramPort } from './build-diagram.ts';
import { boxSize, layoutDiagram } from './diagram-layout.ts';

/** The diagram fills 0.85 of its frame (docs/product.md §18.10): the rest is padding. */
const FIT = { padding: 0.15 } as const;

type BoxNode = Node<{ box: DiagramBox }, 'box'>;

/** Following an instance: the page opens its component. */
const OpenContext = createContext<(id: string) => void>(() => {});

function Ports({ ports, side }: { ports: readonly DiagramPort[]; side: string }) {
  if (ports.length === 0) return null;
  return (
    <ul className="gdb-diagram-ports" aria-label={side}>
      {ports.map((p) => (
        <li key={p.name}>
          <strong>{p.name}</strong> <code>{p.model}</code>
        </li>
      ))}
    </ul>
  );
}

function BoxBody({ box }: { box: DiagramBox }) {
  const open = useContext(OpenContext);
  if ('port' in box) {
    return (
      <>
        <span className="gdb-diagram-kind">{box.kind}</span>
        <strong>{box.port.name}</strong>
        <code>{box.port.model}</code>
      </>
    );
  }
  if (box.kind === 'link') {
    return (
      <>
        <span className="gdb-diagram-kind">link</span>
        <strong>{box.name}</strong>
        <span>
          {box.fromPort} → {box.toPort}
        </span>
      </>
    );
  }
  const { target } = box;
  return (
    <>
      <span className="gdb-diagram-kind">{box.kind}</span>
      <strong>{box.name}</strong>
      {target && (
        <a
          href={`/manage/components?id=${encodeURIComponent(target.id)}`}
          className="nodrag"
          onClick={(e) => {
            e.preventDefault();
            open(target.id);
          }}
        >
          {target.name} v{target.version}
        </a>
      )}
      <Ports ports={box.inputs} side="Inputs" />
      <Ports ports={box.outputs} side="Outputs" />
    </>
  );
}

function Box({ data }: NodeProps<BoxNode>) {
  return (
    <div className={`gdb-diagram-box gdb-diagram-${data.box.kind}`}>
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <BoxBody box={data.box} />
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
}

const nodeTypes = { box: Box };

function nodeOf(box: DiagramBox, place: { x: number; y: number } | undefined): BoxNode {
  const size = boxSize(box);
  return {
    id: box.id,
    type: 'box',
    position: place ?? { x: 0, y: 0 },
    data: { box },
    ...size,
    draggable: false,
    connectable: false,
    handles: [
      { type: 'target', position: Position.Left, x: 0, y: size.height / 2, width: 1, height: 1 },
      { type: 'source', position: Position.Right, x: size.width, y: size.height / 2, width: 1, height: 1 },
    ],
  };
}

export interface SchematicProps {
  diagram: Diagram;
  onOpen: (id: string) => void;
  /** Told once the boxes are laid out and drawn (the bench times it). */
  onDrawn?: () => void;
}

function Flow({ diagram, onOpen, onDrawn }: SchematicProps) {
  const [nodes, setNodes] = useState<BoxNode[]>([]);
  const { fitView } = useReactFlow();
  useEffect(() => {
    let live = true;
    void layoutDiagram(diagram).then((places) => {
      if (live) setNodes(diagram.boxes.map((b) => nodeOf(b, places.get(b.id))));
    });
    return () => {
      live = false;
    };
  }, [diagram]);
  useEffect(() => {
    if (nodes.length === 0) return;
    void fitView(FIT).then(() => onDrawn?.());
  }, [nodes, fitView, onDrawn]);
  const edges: Edge[] = diagram.arrows.map((a) => ({ ...a, markerEnd: { type: 'arrowclosed' } }) as Edge);
  return (
    <OpenContext.Provider value={onOpen}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        nodesDraggable={false}
        nodesConnectable={false}
        minZoom={0.05}
        proOptions={{ hideAttribution: true }}
      />
    </OpenContext.Provider>
  );
}

/** The component schematic: boxes laid out by elkjs, drawn by React Flow, fitted at 0.85. */
export function Schematic(props: SchematicProps) {
  return (
    <figure className="gdb-diagram" aria-label="Component schematic">
      <ReactFlowProvider>
        <Flow {...props} />
      </ReactFlowProvider>
    </figure>
  );
}
