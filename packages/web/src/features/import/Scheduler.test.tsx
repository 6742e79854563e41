import '../../test/dom.ts';
import { fireEvent, render, screen } from '@testing-library/react';
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
