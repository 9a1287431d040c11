import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app.tsx';
import './kit.css';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // A local service: errors are real answers, not flakiness worth retrying three times.
    queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 1_000 },
  },
});

const root = document.getElementById('root');
if (root) {
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
