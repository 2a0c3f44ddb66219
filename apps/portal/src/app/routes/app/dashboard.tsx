export function Component() {
  return <h1>Dashboard</h1>;
}
