export function Component() {
  return <h1>BTR Warranty + Loss of Rent Calculator</h1>;
}
