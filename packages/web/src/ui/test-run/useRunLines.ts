import type { LiveTestLog } from '@gdb/shared/live/live.schemas';
import { useEffect, useRef, useState } from 'react';
import { useLiveDocuments } from '../useLiveDocuments.ts';
import { newRunId, parseTestLog } from './test-logs.ts';

/** Longest wait for the live channel before a run starts anyway (its answer holds every line). */
const FOLLOW_WAIT_MS = 1_500;

/**
 * The live log lines of the test run going on (the live channel's `testLogs`, by the run's id):
 * `start` follows a new run id and resolves once its lines are followed — so the first line is not
 * written before anyone listens — or once the channel says it cannot, or after a moment; `stop`
 * stops following and answers the lines that came.
 */
export function useRunLines() {
  const [runId, setRunId] = useState<string | null>(null);
  const live = useLiveDocuments('testLogs', runId ? { runId } : null, parseTestLog);
  const waiting = useRef<(() => void) | null>(null);
  const streamed = useRef<LiveTestLog[]>(live.docs);
  streamed.current = live.docs;
  useEffect(() => {
    if (live.status !== 'idle' && live.status !== 'connecting') waiting.current?.();
  }, [live.status]);
  useEffect(() => () => waiting.current?.(), []);

  const start = (): Promise<string> => {
    waiting.current?.();
    const id = newRunId();
    setRunId(id);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(), FOLLOW_WAIT_MS);
      const done = () => {
        clearTimeout(timer);
        if (waiting.current === done) waiting.current = null;
        resolve(id);
      };
      waiting.current = done;
    });
  };
  const stop = (): LiveTestLog[] => {
    const lines = streamed.current;
    setRunId(null);
    return lines;
  };
  return { start, stop, streamed: live.docs };
}
