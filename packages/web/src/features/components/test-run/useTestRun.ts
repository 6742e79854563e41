import type { Component } from '@gdb/shared/components/components.schemas';
import { App } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { showFailure } from '../../../ground/request/failure.ts';
import { mergeLogs, type TestLogLine } from '../../../ui/test-run/test-logs.ts';
import { useRunLines } from '../../../ui/test-run/useRunLines.ts';
import { componentJsCode, executeComponent, stopComponent } from '../api.ts';
import { jsonText, parseObject } from './test-json.ts';
import { TEST_TEXTS } from './test-texts.ts';

/**
 * The test editors' texts and a run of the open version: idle, running (its log lines shown as they
 * are written), then its result or an error; the answer adds only the lines that did not stream.
 */
export function useTestRun(component: Component) {
  const { message } = App.useApp();
  const [input, setInput] = useState(() => jsonText(component.testPayload));
  const [context, setContext] = useState(() => jsonText(component.testContext));
  const [output, setOutput] = useState('{}');
  const [logs, setLogs] = useState<TestLogLine[]>([]);
  const [running, setRunning] = useState(false);
  const lines = useRunLines();
  /** Set by 'Cancel test' while the run waits for its lines to be followed: the run is then not sent. */
  const cancelled = useRef(false);
  const streaming = useMemo(() => mergeLogs(lines.streamed, null), [lines.streamed]);
  useEffect(() => {
    setInput(jsonText(component.testPayload));
    setContext(jsonText(component.testContext));
    setOutput('{}');
    setLogs([]);
  }, [component]);

  const run = async () => {
    const payload = parseObject(input);
    const rtContext = parseObject(context);
    if (!payload) return void message.error(TEST_TEXTS.notJson(TEST_TEXTS.input));
    if (!rtContext) return void message.error(TEST_TEXTS.notJson(TEST_TEXTS.context));
    setRunning(true);
    setLogs([]);
    cancelled.current = false;
    try {
      const runId = await lines.start();
      if (cancelled.current) return void setLogs(mergeLogs(lines.stop(), null));
      const result = await executeComponent(component._id, payload, rtContext, runId);
      setOutput(jsonText(result.output));
      setContext(jsonText(result.rt_context));
      setLogs(mergeLogs(lines.stop(), result.logs));
    } catch (error) {
      setLogs(mergeLogs(lines.stop(), null));
      showFailure(error, (text) => message.error(TEST_TEXTS.executeError(text)));
    } finally {
      setRunning(false);
    }
  };
  const cancel = async () => {
    cancelled.current = true;
    try {
      await stopComponent(component._id);
    } catch (error) {
      showFailure(error, (text) => message.error(TEST_TEXTS.stopError(text)));
    }
  };
  const copy = async () => {
    try {
      const code = await componentJsCode(component._id);
      await navigator.clipboard.writeText(code);
      console.log(code);
      void message.success(TEST_TEXTS.copied);
    } catch (error) {
      showFailure(error, (text) => message.error(TEST_TEXTS.copyError(text)));
    }
  };
  /** Puts rows into ctx.input under a port name, keeping the other ports' values. */
  const loadRows = (port: string, rows: unknown[]) => {
    const current = parseObject(input) ?? {};
    setInput(jsonText({ ...current, [port]: rows }));
  };
  return { input, setInput, context, setContext, output, logs: running ? streaming : logs, running, run, cancel, copy, loadRows };
}
