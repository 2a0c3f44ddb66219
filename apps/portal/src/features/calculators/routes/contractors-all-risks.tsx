import { ContractorsAllRisksCalculator } from '../components/contractors-all-risks-calculator';

/** /{client}/calculator/contractors-all-risks */
export function Component() {
  return <ContractorsAllRisksCalculator />;
}
