import { linkTitle } from './code-texts.ts';
import type { PortModel } from './PortModels.tsx';

type Path = readonly (string | number)[];
type Read = (path: Path) => unknown;

/** What the code dialog shows around a code field: its title, the link it belongs to, the ports on each side. */
export interface CodeContext {
  title: string;
  link: { name: string; fromPort: string; toPort: string } | null;
  inputs: PortModel[];
  outputs: PortModel[];
}

const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const schemaId = (v: unknown) => (typeof v === 'string' && v ? v : null);

function ports(list: unknown, key: 'inputSchema' | 'outputSchema'): PortModel[] {
  if (!Array.isArray(list)) return [];
  return list.map(record).map((p) => ({ name: str(p.name), schemaId: schemaId(p[key]) }));
}

/**
 * The context of the code field at `path` of the component form: a link's code sits between the
 * port it leaves and the one it reaches (their data models as the last save filled them); the
 * component's own code between its input and output ports.
 */
export function codeContext(path: Path, read: Read): CodeContext {
  if (path.length === 3 && path[0] === 'links' && typeof path[1] === 'number') {
    const link = record(read(['links', path[1]]));
    const name = str(link.name);
    const fromPort = str(link.fromPort);
    const toPort = str(link.toPort);
    return {
      title: linkTitle(name, fromPort, toPort),
      link: { name, fromPort, toPort },
      inputs: [{ name: fromPort, schemaId: schemaId(link.inputSchema) }],
      outputs: [{ name: toPort, schemaId: schemaId(link.outputSchema) }],
    };
  }
  return {
    title: str(read(['name'])) || 'Code',
    link: null,
    inputs: ports(read(['inputs']), 'inputSchema'),
    outputs: ports(read(['outputs']), 'outputSchema'),
  };
}
