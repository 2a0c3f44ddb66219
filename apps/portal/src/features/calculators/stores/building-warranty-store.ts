import {
  BUILD_TYPES,
  BUILDING_WARRANTY_LIMITS,
  quoteBuildingWarranty,
  STAGES,
} from '@firm/pricing';
import type { BuildingWarrantyQuote } from '@firm/pricing';

import {
  toBuildingWarrantySubmission,
  type BuildingWarrantyInputs,
  type BuildingWarrantySubmission,
} from '../api/submit-building-warranty';

import { createDraftStore } from './create-draft-store';

export const initialBuildingWarrantyInputs: BuildingWarrantyInputs = {
  buildType: BUILD_TYPES[0],
  stage: STAGES[0],
  units: BUILDING_WARRANTY_LIMITS.units.default,
  sumInsured: BUILDING_WARRANTY_LIMITS.sumInsured.default,
  gdv: BUILDING_WARRANTY_LIMITS.gdv.default,
};

/** The building warranty quote of the calculator's inputs. */
export const quoteBuildingWarrantyInputs = ({
  buildType,
  stage,
  units,
  sumInsured,
  gdv,
}: BuildingWarrantyInputs) => quoteBuildingWarranty({ buildType, stage, units, sumInsured, gdv });

/** The building warranty calculator's draft. */
export const useBuildingWarrantyStore = createDraftStore<
  BuildingWarrantyInputs,
  BuildingWarrantyQuote,
  BuildingWarrantySubmission
>('calculator:building-warranty', initialBuildingWarrantyInputs, {
  quote: quoteBuildingWarrantyInputs,
  submission: {
    body: toBuildingWarrantySubmission,
    contactOf: ({ name, telephone, email }) => ({ name, telephone, email }),
    referencePrefix: 'BW',
  },
});
