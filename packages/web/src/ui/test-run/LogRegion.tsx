import { useLayoutEffect, useRef } from 'react';
import './test-log.css';
import { logLineText, type TestLogLine } from './test-logs.ts';

/** How close to the bottom (px) still counts as following the newest line. */
const NEAR_BOTTOM = 8;

/**
 * A run's log lines as they arrive: a polite live region (screen readers read new lines without
 * interrupting), kept scrolled to the newest line unless the reader scrolled up to read older ones.
 */
export function LogRegion({ label, lines }: { label: string; lines: readonly TestLogLine[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && following.current && lines.length > 0) el.scrollTop = el.scrollHeight;
  }, [lines]);
  const onScroll = () => {
    const el = ref.current;
    if (el) following.current = el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_BOTTOM;
  };
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region is reached by keyboard to scroll it.
    <div ref={ref} className="gdb-test-log" role="log" aria-live="polite" aria-label={label} tabIndex={0} onScroll={onScroll}>
      {lines.map((l) => (
        <div key={l.seq} className={`gdb-test-log-line gdb-test-log-${l.level}`}>
          {logLineText(l)}
        </div>
      ))}
    </div>
  );
}
