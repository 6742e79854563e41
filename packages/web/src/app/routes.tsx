import { flattenRoutes, isPublicPath } from '@gdb/shared/routes/web-routes';
import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { guardLoader } from './guard.ts';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { RouteError } from './pages/RouteError.tsx';
import { PAGES, upcoming } from './pages.ts';
import { Root } from './Root.tsx';

/** Nothing shows while the first navigation runs its guard; the progress bar is on. */
function Loading() {
  return null;
}

function pageRoute(path: string): RouteObject {
  return { path, lazy: PAGES[path] ?? upcoming };
}

/** The router's tree, built from the shared route table: public pages bare, the rest inside the layout. */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const pages = flattenRoutes().filter((r) => !r.redirect);
  const bare = pages.filter((r) => isPublicPath(r.path) && r.path !== '/404');
  const inLayout = pages.filter((r) => !isPublicPath(r.path));
  return [
    {
      id: 'root',
      loader: guardLoader(queryClient),
      shouldRevalidate: () => true,
      HydrateFallback: Loading,
      ErrorBoundary: RouteError,
      Component: Root,
      children: [
        ...bare.map((r) => pageRoute(r.path)),
        { path: '/404', Component: NotFoundPage },
        {
          lazy: () => import('./layout/AppLayout.tsx').then((m) => ({ Component: m.AppLayout })),
          children: inLayout.map((r) => pageRoute(r.path)),
        },
        // Redirecting and unknown paths: the guard sends them on before anything renders.
        { path: '*', Component: NotFoundPage },
      ],
    },
  ];
}
