import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { createAppRouter, routerReady } from '@/app/router';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// The page's HTML shows its loading note until the first page is ready: the router first runs its loaders (the
// page's served answers make them immediate) and loads its lazy modules, while the browser paints that note.
const router = createAppRouter();
void routerReady(router).then(() => {
  // The first render is a transition, so React renders it in slices and the phone stays responsive while it
  // draws. It starts only once the router has settled: a sliced first render of a router still loading could
  // settle before React Router subscribed to it, and the page would stay on its loading indicator.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    );
  });
});
