import { BtrWarrantyCalculator } from '../components/btr-warranty-calculator';

/** /{client}/calculator/btr-warranty */
export function Component() {
  return <BtrWarrantyCalculator />;
}
