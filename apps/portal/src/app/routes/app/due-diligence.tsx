export function Component() {
  return <h1>Request Due Diligence</h1>;
}
