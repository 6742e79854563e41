import './zod-config.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoot } from './app/AppRoot.tsx';
import { readCspNonce } from './app/csp.ts';
import './app/app.css';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <AppRoot nonce={readCspNonce()} />
    </StrictMode>,
  );
}
