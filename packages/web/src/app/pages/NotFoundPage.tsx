import { Link } from 'react-router';

/** '/404': the not-found screen. */
export function NotFoundPage() {
  return (
    <main className="gdb-not-found">
      <h1>404</h1>
      <p className="gdb-not-found-text">Wrong page...</p>
      <Link to="/">Back to home</Link>
    </main>
  );
}
