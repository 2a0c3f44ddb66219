import { RouterProvider, createBrowserRouter, replace } from 'react-router-dom';
import type { RouteObject, ShouldRevalidateFunctionArgs } from 'react-router-dom';

import { paths, routes } from '@/config/paths';
import { CLIENT_ROUTE_ID } from '@/hooks/use-loaded-client';
import { noteInAppNavigation } from '@/lib/app-navigation';
import { endBoot } from '@/lib/boot';

import { clientLoader, loginLoader, protectedLoader } from './loaders';
import { ClientRoot } from './routes/client-root';
import { PageCodeError } from './page-code-error';
import { NotFoundPage, RouteErrorPage } from './routes/error-pages';
import { PageLoading } from './routes/page-loading';
import type { RouteHandle } from './route-handle';

/** The client and the session are re-read only when the client prefix changes (and on window focus, via SWR). */
const sameClient = ({ currentParams, nextParams }: ShouldRevalidateFunctionArgs) =>
  currentParams.client !== nextParams.client;

/**
 * Every page is its own chunk (`lazy`), so the login page loads no calculator, pricing or PDF code. Each lazy module
 * exports `Component` (React Router's lazy convention). Each page's `handle` names it for its view activity.
 */
const page = (name: RouteHandle['page']): RouteHandle => ({ page: name });

/**
 * A page's code, fetched on its first visit. A fetch that fails (offline, the server restarting, a new release
 * whose files have other names) is a PageCodeError: React Router keeps a lazy route's first outcome for good,
 * and browsers keep a failed module, so that page stayed "Failed to fetch dynamically imported module" in the
 * browser's words until a reload (found by the seventeenth session's portal probe). The error page says what
 * happened and offers the reload.
 */
export const lazyPage =
  <T,>(load: () => Promise<T>) =>
  (): Promise<T> =>
    load().catch((error: unknown) => {
      throw new PageCodeError(error);
    });

const appRoutes: RouteObject[] = [
  {
    path: routes.dashboard,
    handle: page('dashboard'),
    lazy: lazyPage(() => import('./routes/app/dashboard')),
  },
  { path: routes.info, handle: page('info'), lazy: lazyPage(() => import('./routes/app/info')) },
  {
    path: routes.searchResults,
    handle: page('search-results'),
    lazy: lazyPage(() => import('./routes/app/search-results')),
  },
  {
    path: routes.article,
    // Recorded by the page itself, once the article has loaded (`article.tsx`).
    handle: page(null),
    lazy: lazyPage(() => import('./routes/app/article')),
  },
  {
    path: routes.sampleReport,
    handle: page('sample-report'),
    lazy: lazyPage(() => import('./routes/app/sample-report')),
  },
  {
    path: routes.dueDiligence,
    handle: page('due-diligence'),
    lazy: lazyPage(() => import('./routes/app/due-diligence')),
  },
  {
    path: routes.insuranceFramework,
    handle: page('insurance-framework'),
    lazy: lazyPage(() => import('@/features/framework/routes/insurance-framework')),
  },
  {
    path: routes.insuranceGuide,
    handle: page('insurance-guide'),
    lazy: lazyPage(() => import('@/features/guide/routes/insurance-guide')),
  },
  {
    path: routes.calculator.buildingWarranty,
    handle: page('building-warranty-calculator'),
    lazy: lazyPage(() => import('@/features/calculators/routes/building-warranty')),
  },
  {
    path: routes.calculator.contractorsAllRisks,
    handle: page('contractors-all-risks-calculator'),
    lazy: lazyPage(() => import('@/features/calculators/routes/contractors-all-risks')),
  },
  {
    path: routes.calculator.btrWarranty,
    handle: page('btr-warranty-calculator'),
    lazy: lazyPage(() => import('@/features/calculators/routes/btr-warranty')),
  },
];

export const routeObjects: RouteObject[] = [
  {
    id: CLIENT_ROUTE_ID,
    path: `/${routes.client}`,
    loader: clientLoader,
    shouldRevalidate: sameClient,
    element: <ClientRoot />,
    errorElement: <RouteErrorPage />,
    HydrateFallback: PageLoading,
    children: [
      {
        index: true,
        loader: ({ params }) => replace(paths.app.dashboard(params.client ?? '')),
      },
      {
        path: routes.login,
        loader: loginLoader,
        shouldRevalidate: sameClient,
        lazy: lazyPage(() => import('./routes/login')),
      },
      {
        // The logged-in hub: header, sidebar, footer. Without a session every page here goes to the login page.
        loader: protectedLoader,
        shouldRevalidate: sameClient,
        lazy: lazyPage(() => import('./routes/app/app-root')),
        children: [{ errorElement: <RouteErrorPage />, children: appRoutes }],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

/**
 * The portal's router. The answers a page was served with (the first page's, or those its loader fetched) hold for
 * that page only: each navigation ends them as it starts, before the next page's loaders run. A navigation that
 * runs no loader and loads no code goes from page to page without a busy state; its new location ends them.
 *
 * A new location once the first page is drawn (its loaders' redirects, as `/demo` to the dashboard, are part of
 * the page load) is an in-app navigation (`lib/app-navigation.ts`): the hub, entered so, moves focus to its main
 * area.
 */
export function createAppRouter(): AppRouterInstance {
  const created = createBrowserRouter(routeObjects);
  let busy = false;
  let location = created.state.location.key;
  let initialized = created.state.initialized;
  created.subscribe((state) => {
    const nowBusy = state.navigation.state !== 'idle';
    if (nowBusy ? !busy : !busy && state.location.key !== location) endBoot();
    if (initialized && state.location.key !== location) noteInAppNavigation();
    busy = nowBusy;
    location = state.location.key;
    initialized = state.initialized;
  });
  return created;
}

export type AppRouterInstance = ReturnType<typeof createBrowserRouter>;

/** Resolves once the router has run the first page's loaders and loaded its lazy modules (or met an error). */
export function routerReady(router: AppRouterInstance): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) {
      resolve();
      return;
    }
    const stop = router.subscribe((state) => {
      if (state.initialized) {
        stop();
        resolve();
      }
    });
  });
}

export function AppRouter({ router }: { router: AppRouterInstance }) {
  return <RouterProvider router={router} />;
}
