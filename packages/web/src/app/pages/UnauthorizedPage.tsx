import { Typography } from 'antd';
import { Link } from 'react-router';

/** '/unauthorized/index': where the guard sends a user whose roles may not open a page. */
export function UnauthorizedPage() {
  return (
    <section className="gdb-unauthorized">
      <Typography.Title level={3}>Unauthorized</Typography.Title>
      <Typography.Paragraph>You do not have permission to open this page.</Typography.Paragraph>
      <Link to="/">Back to home</Link>
    </section>
  );
}
