export function Component() {
  return <h1>Sample Report</h1>;
}
