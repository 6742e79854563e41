import { flattenRoutes, isPublicPath } from '@gdb/shared/routes/web-routes';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import * as account from '../features/account/index.ts';
import * as components from '../features/components/index.ts';
import * as consult from '../features/consult/index.ts';
import * as exporting from '../features/export/index.ts';
import * as importing from '../features/import/index.ts';
import * as pipelines from '../features/pipelines/index.ts';
import * as schemas from '../features/schemas/index.ts';
import * as testing from '../features/testing/index.ts';
import * as users from '../features/users/index.ts';
import { guardLoader } from './guard.ts';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { RouteError } from './pages/RouteError.tsx';
import { Root } from './Root.tsx';

type Lazy = () => Promise<{ Component: ComponentType }>;

const upcoming: Lazy = () => import('./pages/UpcomingPage.tsx').then((m) => ({ Component: m.UpcomingPage }));

/** Screens that exist; every other path of the table shows the upcoming-feature view. */
const PAGES: Record<string, Lazy> = {
  ...account.pages,
  ...components.pages,
  ...consult.pages,
  ...exporting.pages,
  ...importing.pages,
  ...pipelines.pages,
  ...schemas.pages,
  ...testing.pages,
  ...users.pages,
  '/unauthorized/index': () => import('./pages/UnauthorizedPage.tsx').then((m) => ({ Component: m.UnauthorizedPage })),
};

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
