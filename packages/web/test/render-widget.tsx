// Renders one widget inside the providers a screen gives it (antd's message/modal holder, a query client).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';

/** Renders `node` with a fresh query client (no retries); answers the client and the render result. */
export function renderWidget(node: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <AntApp>{node}</AntApp>
    </QueryClientProvider>,
  );
  return { queryClient, view };
}
