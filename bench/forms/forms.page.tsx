// A dynamic form of 300 fields, as an editor draws a stored data model: its first render, and a
// keystroke in one field (its value set, the field re-validated, the frame painted).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import { DynamicForm } from '../../packages/web/src/ui/forms/index.ts';
import { exposeBench, mount, nextPaint, timeUntilPaint, unmount } from '../browser/page-kit.ts';

export const FIELDS = 300;

/** 300 text fields, four to a row, each required with bounds and a pattern, and a custom rule on every tenth. */
function bigSchema() {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < FIELDS; i += 1) {
    properties[`field${i}`] = {
      type: 'string',
      title: `Field ${i}`,
      minLength: 2,
      maxLength: 40,
      pattern: '^[a-z0-9 ]*$',
      ui: { columns: 3, placeholder: `Value ${i}`, description: i % 5 === 0 ? `About field ${i}` : '' },
      rules: {
        required: true,
        ...(i % 10 === 0 ? { customRule: [{ script: 'dx: {{$self}} !== "forbidden"', errMsg: 'Not this one' }] } : {}),
      },
    };
  }
  return { type: 'object', title: 'Big form', properties };
}

const schema = bigSchema();
const client = new QueryClient();

function Page() {
  return (
    <QueryClientProvider client={client}>
      <AntApp>
        <DynamicForm schema={schema} name="bench-form" />
      </AntApp>
    </QueryClientProvider>
  );
}

/** Types into a field as a user would: the input's value, then its input event. */
function type(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setter?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

let step = 0;

/** A value different from the field's last one: valid, too short, against the pattern, valid again. */
function nextValue(n: number): { value: string; valid: boolean } {
  const round = Math.floor(n / FIELDS);
  const kind = n % 4;
  if (kind === 0) return { value: `ok ${round}`, valid: true };
  if (kind === 1) return { value: String(round % 10), valid: false };
  if (kind === 2) return { value: `bad!${round}`, valid: false };
  return { value: `fine${round}`, valid: true };
}

exposeBench({
  render: async () => {
    unmount();
    await nextPaint();
    return timeUntilPaint(() => mount(<Page />));
  },
  keystroke: async () => {
    if (!document.getElementById('bench-form-field150')) {
      mount(<Page />);
      await nextPaint();
    }
    const i = (step * 37) % FIELDS;
    const input = document.getElementById(`bench-form-field${i}`) as HTMLInputElement;
    const { value, valid } = nextValue(step);
    step += 1;
    const ms = await timeUntilPaint(() => type(input, value));
    const field = input.closest('[data-field-status]');
    const expected = valid ? 'valid' : 'invalid';
    if (field?.getAttribute('data-field-status') !== expected) throw new Error(`Field ${i} was not validated`);
    return ms;
  },
});
