import { defaultTheme } from '@firm/ui';
import { act } from '@testing-library/react';
import { startTransition, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { ThemeProvider } from 'styled-components';
import { afterEach, beforeEach, vi } from 'vitest';

let root: Root | undefined;

/**
 * Renders `routes` at `path` as src/start.tsx renders the app: the first render is a transition (React Router's
 * navigations are too). React suspending on a first render does not resume under a synchronous `act()`, so this
 * is what a test of a lazily fetched page needs. `wrap` puts providers around the router (inside the theme).
 */
export async function renderRoutesAsTheAppDoes(
  routes: RouteObject[],
  path: string,
  wrap: (router: ReactNode) => ReactNode = (router) => router,
): Promise<void> {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
  const ui = (
    <ThemeProvider theme={defaultTheme}>{wrap(<RouterProvider router={router} />)}</ThemeProvider>
  );
  await act(async () => startTransition(() => root?.render(ui)));
}

/** Registers the hooks of a test file using renderRoutesAsTheAppDoes: console errors muted, the page emptied. */
export function renderingAsTheAppDoes(): void {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    document.body.replaceChildren();
    vi.restoreAllMocks();
  });
}
