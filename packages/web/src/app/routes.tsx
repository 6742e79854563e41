import { flattenRoutes, isPublicPath } from '@gdb/shared/routes/web-routes';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { guardLoader } from './guard.ts';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { RouteError } from './pages/RouteError.tsx';
import { Root } from './Root.tsx';

type Lazy = () => Promise<{ Component: ComponentType }>;

const upcoming: Lazy = () => import('./pages/UpcomingPage.tsx').then((m) => ({ Component: m.UpcomingPage }));

/** Screens that exist; every other path of the table shows the upcoming-feature view. */
export const PAGES: Record<string, Lazy> = {
  '/login': () => import('../features/account/LoginPage.tsx').then((m) => ({ Component: m.LoginPage })),
  '/create-password': () =>
    import('../features/account/CreatePasswordPage.tsx').then((m) => ({ Component: m.CreatePasswordPage })),
  '/reset-password': () =>
    import('../features/account/CreatePasswordPage.tsx').then((m) => ({ Component: m.CreatePasswordPage })),
  '/forgotten': () => import('../features/account/ForgottenPage.tsx').then((m) => ({ Component: m.ForgottenPage })),
  '/consult/upload': () => import('../features/consult/ConsultUploadPage.tsx').then((m) => ({ Component: m.ConsultUploadPage })),
  '/consult/import': () => import('../features/consult/LogbookPage.tsx').then((m) => ({ Component: m.LogbookPage })),
  '/export/index': () => import('../features/export/ExportPage.tsx').then((m) => ({ Component: m.ExportPage })),
  '/import/jobs': () => import('../features/import/JobsList.tsx').then((m) => ({ Component: m.ManageJobsPage })),
  '/import/upload': () => import('../features/import/ImportWizardPage.tsx').then((m) => ({ Component: m.ImportWizardPage })),
  '/manage/users': () => import('../features/users/UsersPage.tsx').then((m) => ({ Component: m.UsersPage })),
  '/testing/index': () => import('../features/testing/TestingPage.tsx').then((m) => ({ Component: m.TestingPage })),
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
