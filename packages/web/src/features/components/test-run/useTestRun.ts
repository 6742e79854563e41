import type { Component } from '@gdb/shared/components/components.schemas';
import type { RunLogEntry } from '@gdb/shared/components/run.schemas';
import { App } from 'antd';
import { useEffect, useState } from 'react';
import { showFailure } from '../../../ground/request/failure.ts';
import { componentJsCode, executeComponent, stopComponent } from '../api.ts';
import { jsonText, parseObject } from './test-json.ts';
import { TEST_TEXTS } from './test-texts.ts';

/** The test editors' texts and a run of the open version: idle, running, then its result or an error. */
export function useTestRun(component: Component) {
  const { message } = App.useApp();
  const [input, setInput] = useState(() => jsonText(component.testPayload));
  const [context, setContext] = useState(() => jsonText(component.testContext));
  const [output, setOutput] = useState('{}');
  const [logs, setLogs] = useState<RunLogEntry[]>([]);
  const [running, setRunning] = useState(false);
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
    try {
      const result = await executeComponent(component._id, payload, rtContext);
      setOutput(jsonText(result.output));
      setContext(jsonText(result.rt_context));
      setLogs(result.logs);
    } catch (error) {
      showFailure(error, (text) => message.error(TEST_TEXTS.executeError(text)));
    } finally {
      setRunning(false);
    }
  };
  const cancel = async () => {
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
  return { input, setInput, context, setContext, output, logs, running, run, cancel, copy, loadRows };
}
