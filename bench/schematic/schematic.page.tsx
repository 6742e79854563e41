// The component schematic of a workflow of 200 instances and 300 links, laid out by elkjs and drawn
// by React Flow as the 'View component schematic' section shows it, until fitted and painted.
import type { Component } from '@gdb/shared/components/components.schemas';
import { buildDiagram } from '../../packages/web/src/features/components/diagram/build-diagram.ts';
import { Schematic } from '../../packages/web/src/features/components/diagram/Schematic.tsx';
import { exposeBench, mount, nextPaint, unmount } from '../browser/page-kit.ts';

const INSTANCES = 200;
const LINKS = 300;
const MODEL = 'model';
const port = (name: string) => ({ name, isJoin: false, isFork: false });
const step = {
  _id: 'step',
  name: 'Step',
  version: 1,
  kind: 'instruction',
  inputs: [{ ...port('in'), inputSchema: MODEL, inputIsJoin: false }],
  outputs: [{ ...port('out'), outputSchema: MODEL }],
} as Component;
const link = (i: number, fromInstance: string, toInstance: string) => ({
  name: `link${i}`,
  fromInstance,
  fromPort: fromInstance ? 'out' : 'rows',
  toInstance,
  toPort: toInstance ? 'in' : 'result',
  jsCode: '',
  inputSchema: null,
  outputSchema: null,
});

/** A chain of 200 instances (199 links), its two ends on the component's ports, and 100 links that skip ahead. */
function workflow(): Component {
  const instances = Array.from({ length: INSTANCES }, (_, i) => ({ name: `step${i}`, instanceOf: 'step' }));
  const links = [link(0, '', 'step0')];
  for (let i = 1; i < INSTANCES; i++) links.push(link(i, `step${i - 1}`, `step${i}`));
  links.push(link(INSTANCES, `step${INSTANCES - 1}`, ''));
  for (let i = links.length; i < LINKS; i++) {
    const from = (i * 7) % (INSTANCES - 10);
    links.push(link(i, `step${from}`, `step${from + 3 + (i % 7)}`));
  }
  return {
    _id: 'wf',
    name: 'Big workflow',
    version: 1,
    kind: 'workflow',
    inputs: [{ ...port('rows'), inputSchema: MODEL, inputIsJoin: false }],
    outputs: [{ ...port('result'), outputSchema: MODEL }],
    instances,
    links,
  } as Component;
}

const model = { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } };
const component = workflow();

exposeBench({
  /** Building the boxes, the elkjs layout and React Flow's drawing, until fitted and painted. */
  render: async () => {
    unmount();
    await nextPaint();
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const diagram = buildDiagram({
        component,
        used: new Map([['step', step]]),
        models: new Map([[MODEL, model]]),
        inside: true,
      });
      mount(
        <div style={{ width: 1400, height: 900 }}>
          <Schematic diagram={diagram} onOpen={() => {}} onDrawn={resolve} />
        </div>,
      );
    });
    await nextPaint();
    const ms = performance.now() - started;
    if (document.querySelectorAll('.react-flow__node').length < INSTANCES) throw new Error('The schematic drew too few boxes');
    return ms;
  },
});
