export function Component() {
  return <h1>Insurance Framework</h1>;
}
