import { InsuranceFramework } from '../components/insurance-framework';

/** /{client}/insurance-framework */
export function Component() {
  return <InsuranceFramework />;
}
