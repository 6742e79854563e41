import '../../../test/dom.ts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { Scheduler } from './Scheduler.tsx';
import { DEFAULT_SCHEDULE, type ScheduleForm } from './wizard-rules.ts';

function show(form: ScheduleForm, roles: string[]) {
  const onKind = vi.fn();
  render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <App>
        <Scheduler form={form} roles={roles} disabled={false} onChange={() => {}} onKind={onKind} />
      </App>
    </ConfigProvider>,
  );
  return onKind;
}

const monthly = (day: number): ScheduleForm => ({ ...DEFAULT_SCHEDULE, kind: 'repeat', repeat: 'monthly', day, time: '08:00' });

describe('Scheduler', () => {
  it('offers Now, Later and Repeat to a manager', () => {
    const onKind = show(DEFAULT_SCHEDULE, ['manager']);
    expect(screen.getByLabelText('Now')).toBeDefined();
    expect(screen.getByLabelText('Later')).toBeDefined();
    fireEvent.click(screen.getByLabelText('Repeat'));
    expect(onKind).toHaveBeenCalledWith('repeat');
  });

  it('finds a time by typing it, and Enter chooses it', async () => {
    const onChange = vi.fn();
    render(
      <ConfigProvider theme={{ token: { motion: false } }}>
        <App>
          <Scheduler
            form={{ ...DEFAULT_SCHEDULE, kind: 'scheduled' }}
            roles={['user']}
            disabled={false}
            onChange={onChange}
            onKind={() => {}}
          />
        </App>
      </ConfigProvider>,
    );
    const time = screen.getByLabelText('Time');
    fireEvent.mouseDown(time);
    fireEvent.change(time, { target: { value: '06:3' } });
    await waitFor(() =>
      expect([...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].map((o) => o.title)).toEqual([
        '06:30',
        '06:35',
      ]),
    );
    fireEvent.keyDown(time, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ time: '06:30' })));
  });

  it('does not offer Repeat to the role user', () => {
    show(DEFAULT_SCHEDULE, ['user']);
    expect(screen.getByLabelText('Later')).toBeDefined();
    expect(screen.queryByLabelText('Repeat')).toBeNull();
  });

  it.each([
    [31, 'The import job will only run in a month where month ends with 31st.'],
    [30, 'The import job will not run in February month.'],
    [29, 'The import job will not run in February month, except leap year.'],
  ])('warns for a monthly day %i', (day, warning) => {
    show(monthly(day), ['super-admin']);
    expect(screen.getByText(warning)).toBeDefined();
  });

  it('shows no warning for a monthly day 28', () => {
    show(monthly(28), ['super-admin']);
    expect(screen.queryByText(/The import job will/)).toBeNull();
  });
});
