export {
  BUILD_TYPES,
  STAGES,
  BTR_TERMS,
  CAR_PROPERTY_TYPES,
  FRAMEWORK_PROPERTY_TYPES,
  DEVELOPMENT_TYPES,
  CONTRACTORS,
  SCHEME_LOCATIONS,
  REQUIREMENTS,
  GUIDE_TAGS,
  GUIDE_STAGES,
  INSURANCES,
} from './options';
export type {
  BuildType,
  Stage,
  BtrTermMonths,
  CarPropertyType,
  FrameworkPropertyType,
  DevelopmentType,
  Contractor,
  SchemeLocation,
  Requirement,
  GuideTag,
  GuideStage,
  InsuranceName,
} from './options';
export { BUILDING_WARRANTY_LIMITS, BTR_LIMITS, CAR_LIMITS, FRAMEWORK_LIMITS } from './limits';
export type { SliderLimit } from './limits';
export { quoteBuildingWarranty } from './api/quote-building-warranty';
export type {
  BuildingWarrantyInput,
  BuildingWarrantyQuote,
  BuildingWarrantyRates,
} from './api/quote-building-warranty';
export { quoteBtrWarranty } from './api/quote-btr-warranty';
export type {
  BtrWarrantyInput,
  BtrWarrantyQuote,
  BtrWarrantyRates,
  LossOfRentInput,
} from './api/quote-btr-warranty';
export { quoteContractorsAllRisks } from './api/quote-contractors-all-risks';
export type {
  ContractorsAllRisksInput,
  ContractorsAllRisksQuote,
} from './api/quote-contractors-all-risks';
export { recommendInsuranceFramework } from './api/recommend-insurance-framework';
export type {
  FrameworkRow,
  InsuranceFrameworkInput,
  InsuranceFrameworkRecommendation,
} from './api/recommend-insurance-framework';
export { formatPounds } from './api/format-pounds';
export { RATE_TABLE_VERSION } from './api/rate-table-version';
export { insuranceGuide } from './tables/insurance-guide';
export type { InsuranceGuideRow } from './tables/insurance-guide';
export { CAR_ASSUMPTIONS } from './tables/contractors-all-risks';
export { IPT_RATE, PROGRAMME_CHARGE_PER_MONTH } from './tables/btr-warranty';
export { PricingInputError } from './core/pricing-input-error';
export type { PricingInputIssue } from './core/pricing-input-error';
