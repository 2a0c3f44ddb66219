export function Component() {
  return <h1>Development Insurance Guide</h1>;
}
