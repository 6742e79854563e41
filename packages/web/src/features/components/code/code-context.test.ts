import { describe, expect, it } from 'vitest';
import { codeContext } from './code-context.ts';

const FORM: Record<string, unknown> = {
  name: 'Dealers',
  inputs: [{ name: 'dealers', inputSchema: 'in-model' }],
  outputs: [{ name: 'mapped', outputSchema: '' }],
  links: [{ name: 'toMapped', fromPort: 'dealers', toPort: 'mapped', inputSchema: 'in-model', outputSchema: null }],
};
const read = (path: readonly (string | number)[]) =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], FORM);

describe('codeContext', () => {
  it("puts a component's code between its input and output ports", () => {
    expect(codeContext(['jsCode'], read)).toEqual({
      title: 'Dealers',
      link: null,
      inputs: [{ name: 'dealers', schemaId: 'in-model' }],
      outputs: [{ name: 'mapped', schemaId: null }],
    });
  });

  it("titles a link's code 'Link [name] from [fromPort] to [toPort]' between the two ports", () => {
    const context = codeContext(['links', 0, 'jsCode'], read);
    expect(context.title).toBe('Link toMapped from dealers to mapped');
    expect(context.inputs).toEqual([{ name: 'dealers', schemaId: 'in-model' }]);
    expect(context.outputs).toEqual([{ name: 'mapped', schemaId: null }]);
  });
});
