export function Component() {
  return <h1>Building Warranty Cost Calculator</h1>;
}
