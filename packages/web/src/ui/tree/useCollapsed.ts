import { useCallback, useState } from 'react';

const NONE: ReadonlySet<string> = new Set();

/** The keys of the nodes the user has closed (every node starts open), a toggle, and a reset that opens them all. */
export function useCollapsed() {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(NONE);
  const toggle = useCallback(
    (key: string) =>
      setCollapsed((was) => {
        const next = new Set(was);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      }),
    [],
  );
  const openAll = useCallback(() => setCollapsed(NONE), []);
  return { collapsed, toggle, openAll };
}
