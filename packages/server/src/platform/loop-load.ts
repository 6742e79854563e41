import { type EventLoopUtilization, performance } from 'node:perf_hooks';

/** How far back the load looks, and in how many steps it forgets. */
const WINDOW_MS = 1000;
const STEPS = 4;

/**
 * How busy this process's event loop has been over about the last `windowMs`: 0 when it waited for
 * work the whole time, 1 when it never did. Taken from the loop's own utilisation, sampled every
 * `windowMs / STEPS` by a timer that does not keep the process alive; until the first `windowMs`
 * have passed, over the time since it was made.
 */
export function loopLoad(windowMs = WINDOW_MS, measure = performance.eventLoopUtilization) {
  const samples: EventLoopUtilization[] = [measure()];
  const timer = setInterval(() => {
    samples.push(measure());
    if (samples.length > STEPS + 1) samples.shift();
  }, windowMs / STEPS);
  timer.unref();
  return {
    /** The loop's utilisation since the oldest sample kept (0 when no time has passed since). */
    now: (): number => measure(measure(), samples[0]).utilization || 0,
    stop: (): void => clearInterval(timer),
  };
}

/** The process's loop load, shared by whoever asks (see `loopLoad`), sampled from when this module loads. */
const shared = loopLoad();

/** How busy this process's event loop has been over about the last second (0 to 1). */
export function recentLoopLoad(): number {
  return shared.now();
}
