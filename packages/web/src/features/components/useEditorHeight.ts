import { useEffect, useState } from 'react';

/** The component editor is the window's height minus 60 px. */
const OFFSET = 60;
/** Window resizes are handled 66 ms after the last one. */
const RESIZE_DEBOUNCE_MS = 66;

/** The editor's height, following the window (debounced). */
export function useEditorHeight(): number {
  const [height, setHeight] = useState(() => window.innerHeight - OFFSET);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setHeight(window.innerHeight - OFFSET), RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return height;
}
