import { describe, expect, it } from 'vitest';
import { functionNameSchema } from '../sdk/sdk.schemas.ts';
import { componentSaveBodySchema, idsQuerySchema } from './components.schemas.ts';

describe('component bodies', () => {
  it('accepts a new component from a name and a folder, trimming the name', () => {
    expect(componentSaveBodySchema.parse({ name: '  Mapper ', folder: null })).toEqual({ name: 'Mapper', folder: null });
  });

  it('names every problem of a body', () => {
    const parsed = componentSaveBodySchema.safeParse({
      name: '',
      kind: 'loop',
      inputs: [{ name: '' }],
      instances: [{ name: 'a', instanceOf: 'not-an-id' }],
    });
    expect(parsed.success).toBe(false);
    const issues = parsed.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues).toEqual([
      'name: Please input the component name',
      'kind: The kind is workflow, forEach, instruction or function',
      'inputs.0.name: The input name is required',
      'instances.0.instanceOf: Invalid id',
    ]);
  });

  it('reads ids as a comma-joined list or repeated, without duplicates', () => {
    const a = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
    const b = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
    expect(idsQuerySchema.parse({ ids: `${a}, ${b},${a}` }).ids).toEqual([a, b]);
    expect(idsQuerySchema.parse({ ids: [b, a] }).ids).toEqual([b, a]);
    expect(idsQuerySchema.safeParse({ ids: 'nope' }).success).toBe(false);
  });
});

describe('SDK function names', () => {
  it('are JavaScript identifiers, since components call sdk.<functionName>(…)', () => {
    expect(functionNameSchema.parse('addVat')).toBe('addVat');
    expect(functionNameSchema.parse('_private$1')).toBe('_private$1');
    expect(functionNameSchema.safeParse('add vat').success).toBe(false);
    expect(functionNameSchema.safeParse('1st').success).toBe(false);
  });
});
