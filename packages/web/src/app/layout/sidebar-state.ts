import { useCallback, useEffect, useState } from 'react';

/** The cookie that keeps the sidebar open (1) or closed (0). */
const SIDEBAR_COOKIE = 'sidebarStatus';
/** Below this width the layout is in mobile mode and the sidebar closes. */
const MOBILE_BREAKPOINT = 992;
export const SIDEBAR_WIDTH = 210;

function readSidebarCookie(): boolean {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${SIDEBAR_COOKIE}=`));
  return match?.slice(SIDEBAR_COOKIE.length + 1) !== '0';
}

function writeSidebarCookie(open: boolean): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in some supported browsers
  document.cookie = `${SIDEBAR_COOKIE}=${open ? 1 : 0}; path=/; max-age=31536000; SameSite=Lax`;
}

const isMobileWidth = () => window.innerWidth < MOBILE_BREAKPOINT;

/** True below the mobile breakpoint, following window resizes. */
function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(isMobileWidth);
  useEffect(() => {
    const onResize = () => setMobile(isMobileWidth());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return mobile;
}

/**
 * The sidebar's open state: from the cookie on desktop, closed in mobile mode. Toggling writes
 * the cookie; closing it for a narrow window does not, so a wide window gets the user's choice back.
 */
export function useSidebar() {
  const mobile = useIsMobile();
  const [opened, setOpened] = useState(() => !isMobileWidth() && readSidebarCookie());
  useEffect(() => {
    setOpened(!mobile && readSidebarCookie());
  }, [mobile]);
  const toggle = useCallback(() => {
    writeSidebarCookie(!opened);
    setOpened(!opened);
  }, [opened]);
  const close = useCallback(() => setOpened(false), []);
  return { opened, mobile, toggle, close };
}
