export function Component() {
  return <h1>Log in</h1>;
}
