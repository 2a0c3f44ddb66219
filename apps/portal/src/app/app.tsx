import { useEffect } from 'react';

import { AppProvider } from './provider';
import { AppRouter, type AppRouterInstance } from './router';
import { loadErrorPages } from './routes/error-pages';

export function App({ router }: { router: AppRouterInstance }) {
  // Once the first page is drawn: the error pages' code, so that they show even when the connection drops later.
  useEffect(() => {
    void loadErrorPages();
  }, []);
  return (
    <AppProvider>
      <AppRouter router={router} />
    </AppProvider>
  );
}
