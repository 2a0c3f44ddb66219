import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

import { NotFoundRoute } from './not-found';

export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundRoute />;
  return (
    <main>
      <h1>Oops!</h1>
      <p>Sorry, an unexpected error has occurred.</p>
    </main>
  );
}
