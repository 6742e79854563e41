import type { Component } from '@gdb/shared/components/components.schemas';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useSessionUser } from '../../../ground/session/session.ts';
import { LazyCodeEditor } from '../../../ui/code/LazyCodeEditor.tsx';
import { LogRegion } from '../../../ui/test-run/LogRegion.tsx';
import { LoadDialog } from './LoadDialog.tsx';
import { TEST_TEXTS } from './test-texts.ts';
import { useTestRun } from './useTestRun.ts';

const noEdit = () => {};

/**
 * 'Test component': ctx.input, ctx.output, ctx.rt_context and Logs (the run's lines as they are
 * written), 'Run test' and 'Load ...'; super-admins copy the code and cancel a run.
 */
export function TestSection({ component }: { component: Component }) {
  const test = useTestRun(component);
  const [loading, setLoading] = useState(false);
  const superAdmin = useSessionUser()?.roles.some((r) => r.name === 'super-admin') ?? false;
  return (
    <div className="gdb-test">
      <Space wrap>
        <Button type="primary" loading={test.running} onClick={() => void test.run()}>
          {TEST_TEXTS.run}
        </Button>
        <Button onClick={() => setLoading(true)}>{TEST_TEXTS.load}</Button>
        {superAdmin && <Button onClick={() => void test.copy()}>{TEST_TEXTS.copy}</Button>}
        {superAdmin && test.running && (
          <Button danger onClick={() => void test.cancel()}>
            {TEST_TEXTS.cancel}
          </Button>
        )}
      </Space>
      <div className="gdb-test-editors">
        <Pane title={TEST_TEXTS.input}>
          <LazyCodeEditor label={TEST_TEXTS.input} value={test.input} onChange={test.setInput} readOnly={false} height="small" />
        </Pane>
        <Pane title={TEST_TEXTS.output}>
          <LazyCodeEditor label={TEST_TEXTS.output} value={test.output} onChange={noEdit} readOnly height="small" />
        </Pane>
        <Pane title={TEST_TEXTS.context}>
          <LazyCodeEditor
            label={TEST_TEXTS.context}
            value={test.context}
            onChange={test.setContext}
            readOnly={false}
            height="small"
          />
        </Pane>
        <Pane title={TEST_TEXTS.logs}>
          <LogRegion label={TEST_TEXTS.logs} lines={test.logs} />
        </Pane>
      </div>
      {loading && (
        <LoadDialog ports={component.inputs.map((p) => p.name)} onLoaded={test.loadRows} onClose={() => setLoading(false)} />
      )}
    </div>
  );
}

function Pane({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="gdb-test-pane" aria-label={title}>
      <h5>{title}</h5>
      {children}
    </section>
  );
}
