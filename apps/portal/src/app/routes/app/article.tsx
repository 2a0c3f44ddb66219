export function Component() {
  return <h1>Article</h1>;
}
