import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { applyPageTitle } from './guard.ts';

/** The top of every page: titles the tab once the page of the current address has rendered. */
export function Root() {
  const { pathname } = useLocation();
  useEffect(() => {
    applyPageTitle(pathname);
  }, [pathname]);
  return <Outlet />;
}
