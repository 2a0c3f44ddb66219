import { createContext } from 'react';

/**
 * Whether a component is drawn inside the hub's main landmark (components/layouts/app-layout.tsx). The error and
 * 404 pages draw their own `<main>` when they are the whole page, and a plain block inside the hub's: a second
 * main, inside the first, broke axe's landmark rules (found by the seventeenth session's e2e run of the page
 * whose code could not be fetched).
 */
export const InsideMainLandmark = createContext(false);
