/**
 * Every message a {@link PricingInputError} issue can carry. `{got}`, `{min}`, `{max}`, `{step}`
 * and `{options}` are filled in by the collect helper (see `issues.ts`).
 */
export const NOT_AN_OBJECT_MESSAGE = 'Must be an object of quote inputs (got {got}).';
export const MISSING_MESSAGE = 'Is missing.';
export const UNKNOWN_FIELD_MESSAGE = 'Is not a known field (expected {options}).';
export const MORE_UNKNOWN_FIELDS_MESSAGE = 'Has {count} more fields that are not known.';
export const UNREADABLE_MESSAGE = 'Could not be read: a getter or Proxy on it threw an error.';
export const NOT_A_NUMBER_MESSAGE = 'Must be a number (got {got}).';
export const NOT_FINITE_MESSAGE = 'Must be a finite number (got {got}).';
export const NOT_WHOLE_POUNDS_MESSAGE = 'Must be a whole number of pounds (got {got}).';
export const NOT_WHOLE_NUMBER_MESSAGE = 'Must be a whole number (got {got}).';
export const OUT_OF_RANGE_MESSAGE = 'Must be between {min} and {max} (got {got}).';
export const NOT_A_MULTIPLE_MESSAGE = 'Must be a multiple of {step} (got {got}).';
export const UNKNOWN_OPTION_MESSAGE = 'Must be one of {options} (got {got}).';
export const NOT_A_BOOLEAN_MESSAGE = 'Must be true or false (got {got}).';
export const LOSS_OF_RENT_NOT_AN_OBJECT_MESSAGE =
  'Must be an object { anticipatedRentalIncome, termMonths, programmeMonths }, or left out (got {got}).';
