export function Component() {
  return <h1>Information Hub</h1>;
}
