import { RATE_TABLE_VERSION } from '@firm/pricing';
import { afterEach } from 'vitest';

import { BtrWarrantyCalculator } from '@/features/calculators/components/btr-warranty-calculator';
import { BuildingWarrantyCalculator } from '@/features/calculators/components/building-warranty-calculator';
import { ContractorsAllRisksCalculator } from '@/features/calculators/components/contractors-all-risks-calculator';
import { useBtrWarrantyStore } from '@/features/calculators/stores/btr-warranty-store';
import { useBuildingWarrantyStore } from '@/features/calculators/stores/building-warranty-store';
import { useContactPrefillStore } from '@/features/calculators/stores/contact-prefill-store';
import { useContractorsAllRisksStore } from '@/features/calculators/stores/contractors-all-risks-store';
import type { Client } from '@/types/api';

import { jsonResponse, makeClient } from './fixtures';
import { mockFetch } from './mock-fetch';
import { renderWithClient } from './test-utils';

/** The three calculators: their page, and the label of their telephone field. */
export const CALCULATORS = {
  'building warranty': {
    Calculator: BuildingWarrantyCalculator,
    path: '/demo/calculator/building-warranty',
    telephone: 'Telephone',
  },
  'BTR warranty': {
    Calculator: BtrWarrantyCalculator,
    path: '/demo/calculator/btr-warranty',
    telephone: 'Contact number',
  },
  'contractors all risks': {
    Calculator: ContractorsAllRisksCalculator,
    path: '/demo/calculator/contractors-all-risks',
    telephone: 'Telephone',
  },
} as const;

export type CalculatorName = keyof typeof CALCULATORS;

/**
 * A calculator test file's fetch: stubbed by a mock before each test; after each, the mock is reset and the
 * calculators' drafts, the remembered telephone and the tab's storage are emptied. Call once at the top of the file.
 */
export function mockCalculatorFetch() {
  const fetchMock = mockFetch();
  afterEach(() => {
    useBuildingWarrantyStore.getState().reset();
    useBtrWarrantyStore.getState().reset();
    useContractorsAllRisksStore.getState().reset();
    useContactPrefillStore.getState().reset();
    sessionStorage.clear();
  });
  return fetchMock;
}

/** Renders the calculator `name` on its page, for `client` (logged in, by default). */
export function renderCalculator(name: CalculatorName, client: Client = makeClient()) {
  const { Calculator, path } = CALCULATORS[name];
  return renderWithClient(<Calculator />, { path, client });
}

/** The API's answer to the building warranty post: the reference and the server's own quote. */
export function warrantyCreated(reference: string) {
  return jsonResponse(
    {
      reference,
      quote: {
        rates: { buildCost: 1.13, buildType: 0, stage: 0, units: 0.05 },
        totalPercentage: 1.18,
        estimate: 11_800,
        rateTableVersion: RATE_TABLE_VERSION,
      },
    },
    { status: 201 },
  );
}
