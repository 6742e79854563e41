import '../../../../test/dom.ts';
import type { Component } from '@gdb/shared/components/components.schemas';
import { act, renderHook } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useTestRun } from './useTestRun.ts';

// The live channel held: a run waits for its lines to be followed until the test lets it go.
const follow = vi.hoisted(() => ({ release: (_id: string) => {} }));
vi.mock('../../../ui/test-run/useRunLines.ts', () => ({
  useRunLines: () => ({
    start: () => new Promise<string>((resolve) => (follow.release = resolve)),
    stop: () => [],
    streamed: [],
  }),
}));
const api = vi.hoisted(() => ({
  executeComponent: vi.fn(async () => ({ output: {}, logs: [], rt_context: {} })),
  stopComponent: vi.fn(async () => ({ stopped: false })),
  componentJsCode: vi.fn(async () => ''),
}));
vi.mock('../api.ts', () => api);

const inApp = ({ children }: { children: ReactNode }) => <AntApp>{children}</AntApp>;
const component = { _id: 'c1', testPayload: {}, testContext: {} } as unknown as Component;

describe('a test run', () => {
  it('is not sent when Cancel test comes while it waits for its lines to be followed', async () => {
    const { result } = renderHook(() => useTestRun(component), { wrapper: inApp });
    let run: Promise<void> = Promise.resolve();
    act(() => {
      run = result.current.run();
    });
    expect(result.current.running).toBe(true);
    await act(() => result.current.cancel());
    await act(async () => {
      follow.release('run-1');
      await run;
    });
    expect(api.stopComponent).toHaveBeenCalledWith('c1');
    expect(api.executeComponent).not.toHaveBeenCalled();
    expect(result.current.running).toBe(false);
  });

  it('is sent once its lines are followed', async () => {
    const { result } = renderHook(() => useTestRun(component), { wrapper: inApp });
    let run: Promise<void> = Promise.resolve();
    act(() => {
      run = result.current.run();
    });
    await act(async () => {
      follow.release('run-2');
      await run;
    });
    expect(api.executeComponent).toHaveBeenCalledWith('c1', {}, {}, 'run-2');
  });
});
