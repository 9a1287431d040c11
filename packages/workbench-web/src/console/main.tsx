import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setKeyStorageName } from '../api/auth.ts';
import { ApiError } from '../api/errors.ts';
import { ConsoleApp } from './app.tsx';
import '../kit.css';
import './console.css';

// keel-web's key (RUNTIME_AUTH_API_KEY) is not the workbench's: it has its own entry.
setKeyStorageName('keel-web-api-key');

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (4xx) is an answer, not flakiness: only a network failure or a 5xx is tried again.
      retry: (count, error) =>
        count < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: true,
      staleTime: 1_000,
    },
  },
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <ConsoleApp />
      </QueryClientProvider>
    </StrictMode>,
  );
}
