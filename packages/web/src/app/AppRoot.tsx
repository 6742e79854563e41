import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import { useState } from 'react';
import { createBrowserRouter, type DataRouter, RouterProvider } from 'react-router';
import { useDialogsOpenOnFirstField } from '../ui/dialogFirstField.ts';
import { progress } from './progress.ts';
import { RequestUiBridge } from './RequestUiBridge.tsx';
import { createRoutes } from './routes.tsx';
import { appTheme } from './theme.ts';

/** One client for the whole app; pages keep their own freshness rules. */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
}

/** Runs the progress bar while each navigation (guard, lazy page) is under way. */
export function trackNavigation(router: DataRouter): () => void {
  progress.start();
  let busy = true;
  const update = () => {
    const idle = router.state.initialized && router.state.navigation.state === 'idle';
    if (idle && busy) progress.done();
    else if (!idle && !busy) progress.start();
    busy = !idle;
  };
  update();
  return router.subscribe(update);
}

/** True when the system asks for less motion; antd then skips its animations. */
function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/** The providers (theme with the CSP nonce, message/modal holder, query client) around the router. */
export function AppRoot({ nonce }: { nonce: string | undefined }) {
  const [motion] = useState(() => !prefersReducedMotion());
  const [queryClient] = useState(createQueryClient);
  useDialogsOpenOnFirstField();
  const [router] = useState(() => {
    const r = createBrowserRouter(createRoutes(queryClient));
    trackNavigation(r);
    return r;
  });
  return (
    <ConfigProvider csp={nonce ? { nonce } : {}} theme={appTheme(motion)}>
      <AntApp>
        <RequestUiBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
