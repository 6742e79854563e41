import { routeTrail } from '@gdb/shared/routes/web-routes';
import { Breadcrumb } from 'antd';
import { Link, useLocation } from 'react-router';

/** The titles of the routes from the top of the table down to the current page. */
export function AppBreadcrumb() {
  const { pathname } = useLocation();
  const trail = routeTrail(pathname).filter((r) => r.title);
  // A child titled like its parent (Testing View) reads once.
  const steps = trail.filter((r, i) => i === 0 || r.title !== trail[i - 1]?.title);
  return (
    <Breadcrumb
      className="gdb-breadcrumb"
      items={steps.map((r, i) => ({
        key: r.path,
        title: i < steps.length - 1 ? <Link to={r.path}>{r.title}</Link> : r.title,
      }))}
    />
  );
}
