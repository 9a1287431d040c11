import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ApiError } from './api/errors.ts';
import { App } from './app.tsx';
import { preloadPage } from './routes.tsx';
import './kit.css';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // A local service: errors are real answers, not flakiness worth retrying three times; a 4xx (not
    // found, refused) is the answer, shown at once.
    queries: {
      retry: (failures, error) =>
        failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: true,
      staleTime: 1_000,
    },
  },
});

const root = document.getElementById('root');
if (root) {
  // The first page's code before the first render: shown at once instead of after a fallback.
  await preloadPage(window.location.pathname);
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}
