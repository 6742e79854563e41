import { findRoute } from '@gdb/shared/routes/web-routes';
import { Typography } from 'antd';
import { useLocation } from 'react-router';

/** The view of a screen not built yet: only the route's title. */
export function UpcomingPage() {
  const { pathname } = useLocation();
  const title = findRoute(pathname)?.title;
  return (
    <section className="gdb-upcoming">
      <Typography.Title level={3}>{title}</Typography.Title>
    </section>
  );
}
