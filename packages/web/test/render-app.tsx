// Renders the whole app (providers, guard, layout, pages) on a memory router for the web tests.

import { pageTitle } from '@gdb/shared/routes/web-routes';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect, vi } from 'vitest';
import { createQueryClient, trackNavigation } from '../src/app/AppRoot.tsx';
import { RequestUiBridge } from '../src/app/RequestUiBridge.tsx';
import { createRoutes } from '../src/app/routes.tsx';
import { appTheme } from '../src/app/theme.ts';

/** Renders the app at `path`; answers the router (its state says where the guard went) and helpers. */
export function renderApp(path: string) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [path] });
  trackNavigation(router);
  const reload = vi.fn();
  const view = render(
    <ConfigProvider theme={appTheme(false)}>
      <AntApp>
        <RequestUiBridge reload={reload} />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>,
  );
  const where = () => `${router.state.location.pathname}${router.state.location.search}`;
  /** Waits until the app shows `path`: navigation over, address and tab title those of the page. */
  const opened = (path: string) =>
    waitFor(() => {
      expect(router.state.navigation.state).toBe('idle');
      expect(where()).toBe(path);
      expect(document.title).toBe(pageTitle(path.split('?')[0] ?? path));
    });
  return { router, queryClient, reload, view, where, opened };
}
