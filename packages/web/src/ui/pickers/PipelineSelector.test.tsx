import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { envelope, ok, signedInAs } from '../../../test/fake-api.ts';
import { pipeline } from '../../../test/fixtures.ts';
import { renderWidget } from '../../../test/render-widget.tsx';
import { vid } from '../../../test/versions-fixtures.ts';
import { PipelineSelector, type PipelineSelectorProps } from './PipelineSelector.tsx';

const MASTERS = [
  pipeline(vid(1), 'trucks', { isMaster: true, version: 1, vLocked: true }),
  pipeline(vid(2), 'Cars', { isMaster: true, version: 2, vLocked: false }),
  pipeline(vid(3), 'cars', { isMaster: true, version: 1, vLocked: true }),
];

function show(props: Partial<PipelineSelectorProps> = {}, answer: () => Response = () => ok(MASTERS)) {
  const server = signedInAs(['manager'], { 'GET /pipelines/masters': answer });
  const onChange = vi.fn();
  renderWidget(<PipelineSelector value={null} onChange={onChange} {...props} />);
  return { server, onChange };
}

const input = () => screen.getByLabelText('Pipeline') as HTMLInputElement;
const optionLabels = () => [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
const edit = () => screen.getByRole('button', { name: 'Edit pipeline' }) as HTMLButtonElement;

describe('pipeline selector', () => {
  it("says 'Pipeline' and lists the masters by name ignoring case, each with its version, searchable", async () => {
    const { onChange } = show();
    await screen.findByText('Pipeline');
    fireEvent.mouseDown(input());
    await waitFor(() => expect(optionLabels()).toEqual(['cars (v.1 - Prod)', 'Cars (v.2 - Draft)', 'trucks (v.1 - Prod)']));
    fireEvent.change(input(), { target: { value: 'tru' } });
    await waitFor(() => expect(optionLabels()).toEqual(['trucks (v.1 - Prod)']));
    fireEvent.click(screen.getByText('trucks (v.1 - Prod)'));
    expect(onChange).toHaveBeenCalledWith(vid(1));
  });

  it('shows a chosen master the caller may not read as (no access), never its id', async () => {
    show({ value: vid(9) });
    await screen.findByText('(no access)');
    expect(screen.queryByText(vid(9))).toBeNull();
  });

  it('is clearable', async () => {
    const { onChange } = show({ value: vid(1) });
    await screen.findByText('trucks (v.1 - Prod)');
    const clear = document.querySelector('.ant-select-clear') as HTMLElement;
    fireEvent.mouseDown(clear);
    fireEvent.click(clear);
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(null));
  });

  it('opens the chosen pipeline (ManagePipeline) in a new tab, or hands it to the host', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    show({ value: vid(3) });
    fireEvent.click(edit());
    expect(open).toHaveBeenCalledWith(`/manage/pipeline?id=${vid(3)}`, '_blank', 'noopener');
    open.mockClear();
    const onEdit = vi.fn();
    show({ value: vid(2), onEdit });
    fireEvent.click(screen.getAllByRole('button', { name: 'Edit pipeline' })[1] as HTMLElement);
    expect(onEdit).toHaveBeenCalledWith(vid(2));
    expect(open).not.toHaveBeenCalled();
    open.mockRestore();
  });

  it("is disabled when read-only, and shows the server's message when the masters cannot be read", async () => {
    show({ value: vid(1), readOnly: true });
    expect(input().disabled).toBe(true);
    show({}, () => envelope(50000, 'The masters are away.', null, 500));
    await screen.findByText('The masters are away.');
  });
});
