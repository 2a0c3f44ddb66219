import { useMemo } from 'react';
import { RouterProvider, createBrowserRouter, redirect } from 'react-router-dom';
import type { RouteObject, ShouldRevalidateFunctionArgs } from 'react-router-dom';

import { paths, routes } from '@/config/paths';
import { CLIENT_ROUTE_ID } from '@/hooks/use-client';

import { clientLoader, loginLoader, protectedLoader } from './loaders';
import { ClientRoot } from './routes/client-root';
import { NotFoundRoute } from './routes/not-found';
import { PageLoading } from './routes/page-loading';
import { RouteErrorBoundary } from './routes/route-error';

/** The client and the session are re-read only when the client prefix changes (and on window focus, via SWR). */
const sameClient = ({ currentParams, nextParams }: ShouldRevalidateFunctionArgs) =>
  currentParams.client !== nextParams.client;

/**
 * Every page is its own chunk (`lazy`), so the login page loads no calculator, pricing or PDF code. Each lazy module
 * exports `Component` (React Router's lazy convention).
 */
const appRoutes: RouteObject[] = [
  { path: routes.dashboard, lazy: () => import('./routes/app/dashboard') },
  { path: routes.info, lazy: () => import('./routes/app/info') },
  { path: routes.searchResults, lazy: () => import('./routes/app/search-results') },
  { path: routes.article, lazy: () => import('./routes/app/article') },
  { path: routes.sampleReport, lazy: () => import('./routes/app/sample-report') },
  { path: routes.dueDiligence, lazy: () => import('./routes/app/due-diligence') },
  {
    path: routes.insuranceFramework,
    lazy: () => import('@/features/framework/routes/insurance-framework'),
  },
  { path: routes.insuranceGuide, lazy: () => import('@/features/guide/routes/insurance-guide') },
  {
    path: routes.calculator.buildingWarranty,
    lazy: () => import('@/features/calculators/routes/building-warranty'),
  },
  {
    path: routes.calculator.contractorsAllRisks,
    lazy: () => import('@/features/calculators/routes/contractors-all-risks'),
  },
  {
    path: routes.calculator.btrWarranty,
    lazy: () => import('@/features/calculators/routes/btr-warranty'),
  },
];

export const routeObjects: RouteObject[] = [
  {
    id: CLIENT_ROUTE_ID,
    path: `/${routes.client}`,
    loader: clientLoader,
    shouldRevalidate: sameClient,
    element: <ClientRoot />,
    errorElement: <RouteErrorBoundary />,
    HydrateFallback: PageLoading,
    children: [
      {
        index: true,
        loader: ({ params }) => redirect(paths.app.dashboard(params.client ?? '')),
      },
      {
        path: routes.login,
        loader: loginLoader,
        shouldRevalidate: sameClient,
        lazy: () => import('./routes/login'),
      },
      {
        // The logged-in hub: header, sidebar, footer. Without a session every page here goes to the login page.
        loader: protectedLoader,
        shouldRevalidate: sameClient,
        lazy: () => import('./routes/app/app-root'),
        children: [{ errorElement: <RouteErrorBoundary />, children: appRoutes }],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
  { path: '*', element: <NotFoundRoute /> },
];

export function AppRouter() {
  const router = useMemo(() => createBrowserRouter(routeObjects), []);
  return <RouterProvider router={router} />;
}
