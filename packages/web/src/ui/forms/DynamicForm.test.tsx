import '../../../test/dom.ts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, signedInAs } from '../../../test/fake-api.ts';
import { renderWidget } from '../../../test/render-widget.tsx';
import { DynamicForm, type DynamicFormHandle } from './DynamicForm.tsx';
import { FormPreview } from './FormPreview.tsx';
import { ROOT_NOT_JSON, ROOT_NOT_OBJECT, ROOT_TYPE_NOT_OBJECT } from './schema.ts';

// Shaped like the stored pipeline data model: titles, ui options, required lists, enums, arrays of objects.
const text = (title: string, extra: Record<string, unknown> = {}, ui: Record<string, unknown> = {}) => ({
  type: 'string',
  title,
  ...extra,
  ui: { label: title, ...ui },
});
const pipeline = {
  type: 'object',
  title: 'Pipeline',
  required: ['name'],
  properties: {
    name: text('Name', { minLength: 1, maxLength: 200 }),
    isMaster: { type: 'boolean', title: 'Master', default: false, ui: { label: 'Master' } },
    dataSources: {
      type: 'array',
      title: 'Data sources',
      default: [],
      ui: { label: 'Data sources' },
      items: {
        type: 'object',
        title: 'Data source',
        required: ['dataSubKind'],
        properties: {
          dataSubKind: text('Data sub kind', { pattern: '^[A-Za-z0-9_-]+$' }),
          contentType: text('Content type', { enum: ['csv', 'json'], default: 'csv' }, { widget: 'select' }),
        },
      },
    },
    locale: { type: 'object', title: 'Locale', properties: { language: text('Language') }, ui: { legend: 'Locale', columns: 6 } },
  },
};

const formHandle = () => createRef<DynamicFormHandle>();
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('DynamicForm', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('draws a stored data model: labels, required marks, defaults, legends', async () => {
    renderWidget(<FormPreview schema={pipeline} />);
    expect(await screen.findByLabelText('Name')).toHaveProperty('value', '');
    expect(screen.getByText('Locale')).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'False' })).toHaveProperty('checked', true);
    expect(screen.getByRole('button', { name: 'Validate' })).toBeTruthy();
  });

  it('a failed validation shows "is required", typing fixes it, Reset goes back', async () => {
    renderWidget(<FormPreview schema={pipeline} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('is required')).toBeTruthy();
    type('Name', 'Dealers');
    await waitFor(() => expect(screen.queryByText('is required')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('Validation passed')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByLabelText('Name')).toHaveProperty('value', '');
  });

  it('checks a date field as a date and a date-time field as a date and time', async () => {
    const dated = {
      type: 'object',
      properties: { since: text('Since', { format: 'date' }), at: text('At', { format: 'date-time' }) },
    };
    renderWidget(<FormPreview schema={dated} />);
    await screen.findByLabelText('Since');
    type('Since', '2026-02-30');
    type('At', 'tomorrow');
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('is not a date (YYYY-MM-DD)')).toBeTruthy();
    expect(screen.getByText('is not a date and time (YYYY-MM-DDThh:mm:ss, a zone such as Z or +01:00 optional)')).toBeTruthy();
    type('Since', '2026-02-28');
    type('At', '2026-02-28T10:15:00Z');
    await waitFor(() => expect(screen.queryByText(/is not a date/)).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('Validation passed')).toBeTruthy();
  });

  it('tracks the dirty state against the original value and resets to it', async () => {
    const ref = formHandle();
    const changes: boolean[] = [];
    renderWidget(<DynamicForm ref={ref} schema={pipeline} value={{ name: 'A' }} onChange={(_, s) => changes.push(s.dirty)} />);
    await screen.findByLabelText('Name');
    expect(ref.current?.isDirty()).toBe(false);
    type('Name', 'B');
    expect(ref.current?.isDirty()).toBe(true);
    expect(ref.current?.getValue().name).toBe('B');
    type('Name', 'A');
    expect(ref.current?.isDirty()).toBe(false);
    act(() => ref.current?.setValue(['name'], 'C'));
    act(() => ref.current?.reset());
    expect(screen.getByLabelText('Name')).toHaveProperty('value', 'A');
    expect(changes).toContain(true);
  });

  it('root-schema errors', () => {
    renderWidget(
      <>
        <DynamicForm schema={[1]} name="a" />
        <DynamicForm schema={{ type: 'string' }} name="b" />
        <DynamicForm schema="{not json" name="c" />
      </>,
    );
    expect(screen.getByText(ROOT_NOT_OBJECT)).toBeTruthy();
    expect(screen.getByText(ROOT_TYPE_NOT_OBJECT)).toBeTruthy();
    expect(screen.getByText(ROOT_NOT_JSON)).toBeTruthy();
    expect([ROOT_NOT_OBJECT, ROOT_TYPE_NOT_OBJECT, ROOT_NOT_JSON]).toEqual([
      'fromSchema must be a json object',
      "fromSchema' root field type must be object",
      'fromSchema must be a valid json format',
    ]);
  });

  it('a duplicate form name is warned about and renamed', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { view } = renderWidget(
      <>
        <DynamicForm schema={pipeline} name="twin" />
        <DynamicForm schema={pipeline} name="twin" />
      </>,
    );
    await waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining('A form named twin is already on the page')));
    const ids = [...view.container.querySelectorAll('form')].map((f) => f.id);
    expect(ids[0]).toBe('twin');
    expect(ids[1]).toMatch(/^twin_[a-z0-9]{5}$/);
  });

  it('integer and number inputs are parsed into numbers, or empty when not parsable', async () => {
    const ref = formHandle();
    const schema = {
      type: 'object',
      properties: { age: { type: 'integer', title: 'Age' }, rate: { type: 'number', title: 'Rate' } },
    };
    renderWidget(<DynamicForm ref={ref} schema={schema} />);
    type(await screen.findByLabelText('Age').then(() => 'Age'), '42');
    type('Rate', '-1.5');
    expect(ref.current?.getValue()).toEqual({ age: 42, rate: -1.5 });
    type('Age', 'abc');
    expect(ref.current?.getValue().age).toBe('');
  });

  it('hidden by an expression; rules of hidden fields skipped when ignoreRulesWhenHidden is on', async () => {
    const ref = formHandle();
    const schema = {
      type: 'object',
      properties: {
        kind: { type: 'string', title: 'Kind' },
        url: { type: 'string', title: 'Url', rules: { required: true }, ui: { hidden: 'dx: {{$root.kind}} !== "real-time"' } },
      },
      globalConfig: { ignoreRulesWhenHidden: true },
    };
    renderWidget(<DynamicForm ref={ref} schema={schema} />);
    await screen.findByLabelText('Kind');
    expect(screen.queryByLabelText('Url')).toBeNull();
    expect(await act(() => ref.current?.validate())).toBe(true);
    type('Kind', 'real-time');
    expect(await screen.findByLabelText('Url')).toBeTruthy();
    expect(await act(() => ref.current?.validate())).toBe(false);
  });

  it('with ignoreRulesWhenHidden off, a hidden field still fails its rules', async () => {
    const ref = formHandle();
    const schema = {
      type: 'object',
      properties: { secret: { type: 'string', rules: { required: true }, ui: { hidden: true } } },
      globalConfig: { ignoreRulesWhenHidden: false },
    };
    renderWidget(<DynamicForm ref={ref} schema={schema} />);
    expect(await act(() => ref.current?.validate())).toBe(false);
  });

  it('linked fields are validated again; valueTemplate computes a value; constants are readable', async () => {
    const ref = formHandle();
    const schema = {
      type: 'object',
      properties: {
        password: { type: 'string', title: 'Password', ui: { linkFields: [{ fieldPath: 'confirm', rules: ['customRule'] }] } },
        confirm: {
          type: 'string',
          title: 'Confirm',
          rules: { customRule: [{ script: 'dx: {{$root.password}} === {{$self}}', errMsg: 'Passwords differ' }] },
        },
        full: { type: 'string', title: 'Full', valueTemplate: 'dx: {{$const.prefix}} + {{$root.password}}' },
      },
      globalConfig: { constants: { prefix: 'pw-' } },
    };
    renderWidget(<DynamicForm ref={ref} schema={schema} />);
    await screen.findByLabelText('Password');
    type('Confirm', 'abc');
    expect(await screen.findByText('Passwords differ')).toBeTruthy();
    type('Password', 'abc');
    await waitFor(() => expect(screen.queryByText('Passwords differ')).toBeNull());
    expect(ref.current?.getValue().full).toBe('pw-abc');
  });

  it('columns: a span of 12 (default 12)', async () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', title: 'A', ui: { columns: 6 } }, b: { type: 'string', title: 'B' } },
    };
    const { view } = renderWidget(<DynamicForm schema={schema} />);
    await screen.findByLabelText('A');
    const cells = view.container.querySelectorAll('.gdb-form-object > .gdb-form-grid > .gdb-form-cell');
    expect(cells[0]?.className).toContain('gdb-form-span-6');
    expect(cells[1]?.className).toContain('gdb-form-span-12');
  });

  it('ui options: placeholder, description, help, disabled and readonly (also as expressions), HTML', async () => {
    const schema = {
      type: 'object',
      properties: {
        a: {
          type: 'string',
          title: 'A',
          ui: { placeholder: 'Type A', description: 'About A', help: { show: true, content: 'Help A' } },
        },
        b: { type: 'string', title: 'B', ui: { disabled: 'dx: {{$root.a}} === ""' } },
        c: { type: 'string', title: 'C', ui: { readonly: true } },
        note: { type: 'HTML', value: '<p>Hello <b>you</b><script>alert(1)</script><a href="javascript:x">x</a></p>' },
      },
    };
    const { view } = renderWidget(<DynamicForm schema={schema} />);
    expect(await screen.findByPlaceholderText('Type A')).toBeTruthy();
    expect(screen.getByText('About A')).toBeTruthy();
    expect(screen.getByLabelText('Help A')).toBeTruthy();
    expect(screen.getByLabelText('B')).toHaveProperty('disabled', true);
    type('A', 'x');
    expect(screen.getByLabelText('B')).toHaveProperty('disabled', false);
    expect(screen.getByLabelText('C')).toHaveProperty('readOnly', true);
    expect(view.container.querySelector('.gdb-form-html b')?.textContent).toBe('you');
    expect(view.container.querySelector('.gdb-form-html script')).toBeNull();
    expect(view.container.querySelector('.gdb-form-html a')?.getAttribute('href')).toBeNull();
  });

  it('a COMP field draws the named component with its value', async () => {
    const ref = formHandle();
    const schema = { type: 'object', properties: { color: { type: 'COMP', title: 'Color', ui: { widget: 'colorPicker' } } } };
    const widgets = {
      'color-picker': ({ onChange }: { onChange: (v: unknown) => void }) => (
        <button type="button" onClick={() => onChange('red')}>
          Pick red
        </button>
      ),
    };
    renderWidget(<DynamicForm ref={ref} schema={schema} widgets={widgets} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pick red' }));
    expect(ref.current?.getValue().color).toBe('red');
  });

  it('a delayed rule shows its waiting message in the field and a new edit cancels the pending check', async () => {
    const checks = 'https://checks.example.test/names/';
    const api = signedInAs(
      ['manager'],
      { 'GET /names/free': (c) => ok(!new URLSearchParams(c.search).get('name')?.startsWith('taken')) },
      {
        formCheckUrls: [checks],
      },
    );
    const schema = {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          title: 'Name',
          rules: {
            ajax: {
              value: { remoteUrl: `${checks}free`, resField: 'data' },
              options: { delay: 200, delayMsg: 'Checking the name…' },
            },
          },
        },
      },
    };
    renderWidget(<DynamicForm schema={schema} />);
    await screen.findByLabelText('Name');
    await waitFor(() => expect(api.count('GET /users/info')).toBe(1));
    type('Name', 'taken-1');
    expect(await screen.findByText('Checking the name…')).toBeTruthy();
    type('Name', 'taken-2');
    expect(await screen.findByText('Ajax validation failed')).toBeTruthy();
    const asked = api.calls.filter((c) => c.path === '/names/free');
    expect(asked.map((c) => new URLSearchParams(c.search).get('name'))).toEqual(['taken-2']);
    expect(asked.map((c) => c.headers['x-token'])).toEqual([undefined]);
  });

  it("a stored ajax rule that would act with the viewer's token is not run, and the field says so", async () => {
    const api = signedInAs(['super-admin'], { 'POST /users/create': () => ok({ _id: 'mallory' }) });
    const schema = {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          title: 'Name',
          rules: { ajax: { value: { remoteUrl: '/users/create', method: 'post', otherParams: { roles: ['super-admin'] } } } },
        },
      },
    };
    renderWidget(<DynamicForm schema={schema} />);
    await screen.findByLabelText('Name');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Ajax validation not run: The ajax rule at properties.name.rules.ajax: An ajax rule is sent only as GET, not post',
    );
    type('Name', 'mallory');
    expect(await screen.findByText('Ajax validation not run: An ajax rule is sent only as GET, not post')).toBeTruthy();
    expect(api.calls.filter((c) => c.path !== '/users/info')).toEqual([]);
  });

  it('array items: Add, Up, Down, Del and Delete All, deleting after a confirmation', async () => {
    const ref = formHandle();
    renderWidget(<DynamicForm ref={ref} schema={pipeline} />);
    const add = await screen.findByRole('button', { name: 'Add Data sources' });
    fireEvent.click(add);
    fireEvent.click(add);
    const subKinds = () => screen.getAllByLabelText('Data sub kind');
    fireEvent.change(subKinds()[0] as HTMLElement, { target: { value: 'first' } });
    fireEvent.change(subKinds()[1] as HTMLElement, { target: { value: 'second' } });
    fireEvent.click(screen.getByRole('button', { name: 'Down Data sources 1' }));
    expect(subKinds().map((i) => (i as HTMLInputElement).value)).toEqual(['second', 'first']);
    fireEvent.click(screen.getByRole('button', { name: 'Up Data sources 2' }));
    expect(subKinds().map((i) => (i as HTMLInputElement).value)).toEqual(['first', 'second']);
    fireEvent.click(screen.getByRole('button', { name: 'Del Data sources 1' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure to delete this item?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(subKinds().map((i) => (i as HTMLInputElement).value)).toEqual(['second']));
    fireEvent.click(screen.getByRole('button', { name: 'Delete All Data sources' }));
    expect(await screen.findByText('Are you sure to delete all?')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Yes' }).at(-1) as HTMLElement);
    await waitFor(() => expect(ref.current?.getValue().dataSources).toEqual([]));
  });

  it('an array of single values labels each input with its item title', async () => {
    const schema = {
      type: 'object',
      properties: { codes: { type: 'array', title: 'Codes', items: { type: 'string' }, value: ['A', 'B'] } },
    };
    renderWidget(<DynamicForm schema={schema} />);
    expect(((await screen.findByRole('textbox', { name: 'Codes 1' })) as HTMLInputElement).value).toBe('A');
    expect((screen.getByRole('textbox', { name: 'Codes 2' }) as HTMLInputElement).value).toBe('B');
  });

  it('array items fold and expand, one at a time or all together', async () => {
    const schema = { type: 'object', properties: { dataSources: { ...pipeline.properties.dataSources, value: [{}, {}] } } };
    renderWidget(<DynamicForm schema={schema} />);
    await screen.findAllByLabelText('Data sub kind');
    fireEvent.click(screen.getByRole('button', { name: 'Fold Data sources 1' }));
    expect(screen.getAllByLabelText('Data sub kind')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Expand Data sources 1' }));
    expect(screen.getAllByLabelText('Data sub kind')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Fold' }));
    expect(screen.queryAllByLabelText('Data sub kind')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Expand' }));
    expect(screen.getAllByLabelText('Data sub kind')).toHaveLength(2);
  });

  it('array table layout: an Action column of 130 px', async () => {
    const schema = {
      type: 'object',
      properties: {
        rows: { type: 'array', items: pipeline.properties.dataSources.items, value: [{}], ui: { widget: 'array-table' } },
      },
    };
    const { view } = renderWidget(<DynamicForm schema={schema} />);
    expect(await screen.findByText('Action')).toBeTruthy();
    const col = [...view.container.querySelectorAll('col')].find((c) => c.style.width === '130px');
    expect(col).toBeTruthy();
  });
});
