import { Alert, App, Button, Input, Typography } from 'antd';
import { useId, useMemo, useState } from 'react';
import { executeSdk } from '../../ground/calls/sdk.ts';
import { errorText, wasShown } from '../../ground/request/failure.ts';
import { LogRegion } from '../../ui/test-run/LogRegion.tsx';
import { mergeLogs, type TestLogLine } from '../../ui/test-run/test-logs.ts';
import { useRunLines } from '../../ui/test-run/useRunLines.ts';
import { SDK_TEST_TEXTS } from './sdk-texts.ts';
import type { SdkDoc } from './useSdkDocument.ts';

/** JSON as the editors show it: indented by 4. */
const pretty = (value: unknown) => JSON.stringify(value ?? null, null, 4);

/** The arguments typed, when they are a JSON array; else the words saying why not. */
function readArguments(text: string): { args: unknown[] } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `${SDK_TEST_TEXTS.notJson} ${errorText(error)}` };
  }
  return Array.isArray(value) ? { args: value } : { problem: SDK_TEST_TEXTS.notArray };
}

/**
 * The test area: the arguments as a JSON array, 'Run test', then the answer of the run; its log
 * lines show as the run writes them (the answer adds only those that did not stream).
 */
export function SdkTestArea({ doc }: { doc: SdkDoc }) {
  const { message } = App.useApp();
  const ids = { args: useId(), output: useId() };
  const [text, setText] = useState(() => pretty(Array.isArray(doc.testPayload) ? doc.testPayload : []));
  const [problem, setProblem] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [answer, setAnswer] = useState<{ output: unknown } | null>(null);
  /** The lines of the last run, null before any. */
  const [logs, setLogs] = useState<TestLogLine[] | null>(null);
  const lines = useRunLines();
  const streaming = useMemo(() => mergeLogs(lines.streamed, null), [lines.streamed]);

  const run = async () => {
    const read = readArguments(text);
    if ('problem' in read) return setProblem(read.problem);
    setProblem(null);
    setRunning(true);
    setAnswer(null);
    setLogs([]);
    try {
      const runId = await lines.start();
      const result = await executeSdk(doc.functionName, read.args, runId);
      setAnswer({ output: result.output });
      setLogs(mergeLogs(lines.stop(), result.logs));
    } catch (error) {
      setLogs(mergeLogs(lines.stop(), null));
      if (!wasShown(error)) void message.error(`${SDK_TEST_TEXTS.executeError}${errorText(error)}`);
    } finally {
      setRunning(false);
    }
  };
  const shown = running ? streaming : logs;

  return (
    <div className="gdb-sdk-test">
      <Typography.Text type="secondary">{SDK_TEST_TEXTS.runsSaved(doc.functionName)}</Typography.Text>
      <label htmlFor={ids.args}>{SDK_TEST_TEXTS.arguments}</label>
      <Input.TextArea
        id={ids.args}
        className="gdb-sdk-code-text"
        // No autoSize: its measuring copy is a hidden textarea that the keyboard can still reach.
        rows={6}
        value={text}
        status={problem ? 'error' : undefined}
        onChange={(e) => setText(e.target.value)}
      />
      {problem && <Alert type="error" showIcon role="alert" title={problem} />}
      <div className="gdb-sdk-bar">
        <Button type="primary" loading={running} onClick={() => void run()}>
          {SDK_TEST_TEXTS.run}
        </Button>
      </div>
      {answer && (
        <>
          <span id={ids.output}>{SDK_TEST_TEXTS.output}</span>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: an answer that scrolls takes the focus, so the keyboard can scroll it */}
          <section className="gdb-sdk-output" aria-labelledby={ids.output} tabIndex={0}>
            <pre>{pretty(answer.output)}</pre>
          </section>
        </>
      )}
      {shown && (
        <>
          <span>{SDK_TEST_TEXTS.logs}</span>
          <LogRegion label={SDK_TEST_TEXTS.logs} lines={shown} />
        </>
      )}
    </div>
  );
}
