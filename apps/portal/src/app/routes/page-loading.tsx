export function PageLoading() {
  return <p role="status">Loading…</p>;
}
