import { BUILDING_WARRANTY_LIMITS, BTR_LIMITS, CAR_LIMITS, FRAMEWORK_LIMITS } from '../limits';
import {
  BTR_BASE_RATE,
  BTR_STAGE_RATES,
  IPT_RATE,
  LOSS_OF_RENT_TERM_RATES,
  PROGRAMME_CHARGE_PER_MONTH,
} from './btr-warranty';
import { BUILD_COST_BANDS, BUILD_TYPE_RATES, STAGE_RATES, UNITS_BANDS } from './building-warranty';
import { CAR_ASSUMPTIONS, CAR_RATES } from './contractors-all-risks';
import {
  EMPLOYERS_LIABILITY_LIMIT,
  PROFESSIONAL_INDEMNITY_BANDS,
  PUBLIC_LIABILITY_BANDS,
} from './framework-limits';
import { FRAMEWORK_ROWS } from './framework-rows';
import { insuranceGuide } from './insurance-guide';

/**
 * Every table that decides a quote, a recommendation or which input is accepted: the content
 * `RATE_TABLE_VERSION` is computed from. A new table must be added here.
 */
export const RATE_TABLES = {
  buildingWarranty: {
    limits: BUILDING_WARRANTY_LIMITS,
    buildCostBands: BUILD_COST_BANDS,
    buildTypeRates: BUILD_TYPE_RATES,
    stageRates: STAGE_RATES,
    unitsBands: UNITS_BANDS,
  },
  btrWarranty: {
    limits: BTR_LIMITS,
    baseRate: BTR_BASE_RATE,
    stageRates: BTR_STAGE_RATES,
    lossOfRentTermRates: LOSS_OF_RENT_TERM_RATES,
    programmeChargePerMonth: PROGRAMME_CHARGE_PER_MONTH,
    iptRate: IPT_RATE,
  },
  contractorsAllRisks: {
    limits: CAR_LIMITS,
    rates: CAR_RATES,
    assumptions: CAR_ASSUMPTIONS,
  },
  insuranceFramework: {
    limits: FRAMEWORK_LIMITS,
    professionalIndemnityBands: PROFESSIONAL_INDEMNITY_BANDS,
    publicLiabilityBands: PUBLIC_LIABILITY_BANDS,
    employersLiabilityLimit: EMPLOYERS_LIABILITY_LIMIT,
    rows: FRAMEWORK_ROWS,
  },
  insuranceGuide,
} as const;
