export function Component() {
  return <h1>Contractors All Risks Calculator</h1>;
}
