import type { SliderLimit } from '../limits';
import { BTR_LIMITS, BUILDING_WARRANTY_LIMITS, CAR_LIMITS, FRAMEWORK_LIMITS } from '../limits';
import {
  BTR_TERMS,
  BUILD_TYPES,
  CAR_PROPERTY_TYPES,
  CONTRACTORS,
  DEVELOPMENT_TYPES,
  FRAMEWORK_PROPERTY_TYPES,
  SCHEME_LOCATIONS,
  STAGES,
} from '../options';

/** How a command-line value is read before the library validates it. */
export type OptionKind = 'label' | 'number' | 'boolean';

/** One command-line option and the input field it fills (`lossOfRent.x` for the BTR group). */
export interface OptionSpec {
  readonly flag: string;
  readonly field: string;
  readonly kind: OptionKind;
  readonly choices?: readonly (string | number)[];
  readonly limit?: SliderLimit;
}

/** The products the tool knows, with the options of each. */
export const PRODUCTS = {
  'building-warranty': [
    { flag: 'build-type', field: 'buildType', kind: 'label', choices: BUILD_TYPES },
    { flag: 'stage', field: 'stage', kind: 'label', choices: STAGES },
    { flag: 'units', field: 'units', kind: 'number', limit: BUILDING_WARRANTY_LIMITS.units },
    {
      flag: 'sum-insured',
      field: 'sumInsured',
      kind: 'number',
      limit: BUILDING_WARRANTY_LIMITS.sumInsured,
    },
    { flag: 'gdv', field: 'gdv', kind: 'number', limit: BUILDING_WARRANTY_LIMITS.gdv },
  ],
  btr: [
    { flag: 'stage', field: 'stage', kind: 'label', choices: STAGES },
    { flag: 'units', field: 'units', kind: 'number', limit: BTR_LIMITS.units },
    { flag: 'sum-insured', field: 'sumInsured', kind: 'number', limit: BTR_LIMITS.sumInsured },
    { flag: 'gdv', field: 'gdv', kind: 'number', limit: BTR_LIMITS.gdv },
    {
      flag: 'anticipated-rental-income',
      field: 'lossOfRent.anticipatedRentalIncome',
      kind: 'number',
      limit: BTR_LIMITS.anticipatedRentalIncome,
    },
    { flag: 'term-months', field: 'lossOfRent.termMonths', kind: 'number', choices: BTR_TERMS },
    {
      flag: 'programme-months',
      field: 'lossOfRent.programmeMonths',
      kind: 'number',
      limit: BTR_LIMITS.programmeMonths,
    },
  ],
  car: [
    { flag: 'property-type', field: 'propertyType', kind: 'label', choices: CAR_PROPERTY_TYPES },
    {
      flag: 'contract-works-value',
      field: 'contractWorksValue',
      kind: 'number',
      limit: CAR_LIMITS.contractWorksValue,
    },
  ],
  framework: [
    {
      flag: 'property-type',
      field: 'propertyType',
      kind: 'label',
      choices: FRAMEWORK_PROPERTY_TYPES,
    },
    {
      flag: 'contract-value',
      field: 'contractValue',
      kind: 'number',
      limit: FRAMEWORK_LIMITS.contractValue,
    },
    { flag: 'has-basement', field: 'hasBasement', kind: 'boolean' },
    {
      flag: 'development-type',
      field: 'developmentType',
      kind: 'label',
      choices: DEVELOPMENT_TYPES,
    },
    { flag: 'gdv', field: 'gdv', kind: 'number', limit: FRAMEWORK_LIMITS.gdv },
    { flag: 'contractor', field: 'contractor', kind: 'label', choices: CONTRACTORS },
    { flag: 'scheme-location', field: 'schemeLocation', kind: 'label', choices: SCHEME_LOCATIONS },
    {
      flag: 'reinstatement',
      field: 'reinstatement',
      kind: 'number',
      limit: FRAMEWORK_LIMITS.reinstatement,
    },
    { flag: 'has-flat-roof', field: 'hasFlatRoof', kind: 'boolean' },
  ],
} as const satisfies Record<string, readonly OptionSpec[]>;

export type Product = keyof typeof PRODUCTS;
