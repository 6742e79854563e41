/**
 * Calls a minute per endpoint key, counted by this instance in fixed one-minute windows (see
 * docs/decisions.md, "Endpoint calls"). Answers the seconds to wait when the call is one too many.
 */
export function callLimits(now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>();
  return (key: string, perMinute: number): number | undefined => {
    const t = now();
    const w = windows.get(key);
    if (!w || t - w.start >= 60_000) {
      // Windows ended long ago go as new ones begin, so the map holds only the keys in use.
      for (const [k, old] of windows) if (t - old.start >= 60_000) windows.delete(k);
      windows.set(key, { start: t, count: 1 });
      return undefined;
    }
    if (w.count >= perMinute) return Math.max(1, Math.ceil((w.start + 60_000 - t) / 1000));
    w.count += 1;
    return undefined;
  };
}
