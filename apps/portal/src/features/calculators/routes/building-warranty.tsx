import { BuildingWarrantyCalculator } from '../components/building-warranty-calculator';

/** /{client}/calculator/building-warranty */
export function Component() {
  return <BuildingWarrantyCalculator />;
}
