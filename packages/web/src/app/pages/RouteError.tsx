import { useRouteError } from 'react-router';

/** Shown when a page fails to load or render (e.g. a chunk of an older build is gone). */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <main className="gdb-not-found" role="alert">
      <p className="gdb-not-found-text">Something went wrong while opening this page.</p>
      <button type="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}
