import { findRoute, IMPORT_TITLE } from '@gdb/shared/routes/web-routes';
import { Layout } from 'antd';
import { useEffect, useRef } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useSessionUser } from '../../ground/session/session.ts';
import { focusableScrollBoxes, useDomRepair } from '../../ui/useDomRepair.ts';
import { Navbar } from './Navbar.tsx';
import { Sidebar } from './Sidebar.tsx';
import { SIDEBAR_WIDTH, useSidebar } from './sidebar-state.ts';
import './layout.css';

/** The frame of every signed-in page (docs/product.md §3.3): sidebar, navbar with breadcrumb, page. */
export function AppLayout() {
  const user = useSessionUser();
  const { opened, mobile, toggle, close } = useSidebar();
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const page = useDomRepair<HTMLDivElement>(focusableScrollBoxes);
  // A page opens at its top, not where the previous one was scrolled to.
  useEffect(() => {
    if (!pathname) return;
    if (document.scrollingElement) document.scrollingElement.scrollTop = 0;
    if (main.current) main.current.scrollTop = 0;
  }, [pathname]);
  if (!user) return null;
  const roles = user.roles.map((r) => r.name);
  const classes = ['gdb-layout', mobile ? 'is-mobile' : 'is-desktop', opened ? 'sidebar-open' : 'sidebar-closed'];
  return (
    <Layout className={classes.join(' ')}>
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is an in-page link; the click only spares the router's address */}
      <a
        href="#main-content"
        className="gdb-skip-link"
        onClick={(e) => {
          // The router owns the address: move the focus to the page without changing it.
          e.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to main content
      </a>
      {mobile && opened ? <div className="gdb-drawer-mask" aria-hidden="true" onClick={close} /> : null}
      <Layout.Sider
        className="gdb-sidebar"
        width={SIDEBAR_WIDTH}
        collapsedWidth={mobile ? 0 : 64}
        collapsed={!opened}
        trigger={null}
        theme="dark"
        aria-label="Sidebar"
      >
        <Link to="/" className="gdb-logo">
          {opened ? IMPORT_TITLE : 'GDB'}
        </Link>
        <Sidebar roles={roles} collapsed={!opened} {...(mobile ? { onNavigate: close } : {})} />
      </Layout.Sider>
      <Layout className="gdb-main">
        <Navbar user={user} sidebarOpened={opened} onToggleSidebar={toggle} />
        <Layout.Content className="gdb-content" id="main-content" tabIndex={-1} ref={main}>
          {/* One level-one heading per page: the route's title (the breadcrumb shows it to the eye). */}
          <h1 className="gdb-sr-only">{findRoute(pathname)?.title ?? IMPORT_TITLE}</h1>
          <div ref={page}>
            <Outlet />
          </div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
