import { useEffect, useState } from 'react';

/** Window resizes are handled 66 ms after the last one. */
const RESIZE_DEBOUNCE_MS = 66;

/** An editor's height, the window's less `offset` pixels, following the window (debounced). */
export function useEditorHeight(offset: number): number {
  const [height, setHeight] = useState(() => window.innerHeight - offset);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setHeight(window.innerHeight - offset), RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, [offset]);
  return height;
}
