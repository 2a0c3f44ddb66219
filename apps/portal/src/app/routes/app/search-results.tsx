export function Component() {
  return <h1>Search Results</h1>;
}
