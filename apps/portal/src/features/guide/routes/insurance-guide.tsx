import { InsuranceGuide } from '../components/insurance-guide';

/** /{client}/insurance-guide */
export function Component() {
  return <InsuranceGuide />;
}
