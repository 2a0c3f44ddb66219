import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// The page's HTML shows a loading note; let the browser paint it before the app's first render, which is the
// heaviest work of the visit, so a slow phone shows something at once rather than a blank page.
requestAnimationFrame(() => {
  setTimeout(() => {
    // Not as a transition: the router must be subscribed before its first loaders settle (a sliced first
    // render let them settle first, and the page stayed on its loading indicator).
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  }, 0);
});
