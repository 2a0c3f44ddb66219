export function NotFoundRoute() {
  return (
    <main>
      <h1>404 Not Found</h1>
    </main>
  );
}
