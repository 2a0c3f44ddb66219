import type { LimitBand } from './types';

/**
 * Recommended professional indemnity limit in pounds by contract-value band; the lowest band is
 * "at least" £5m (decisions.md §1).
 */
export const PROFESSIONAL_INDEMNITY_BANDS = [
  { from: 0, limit: 5_000_000 },
  { from: 5_000_000, limit: 10_000_000 },
  { from: 25_000_000, limit: 15_000_000 },
] as const satisfies readonly LimitBand[];

/** Recommended public liability limit in pounds by contract-value band (decisions.md §1). */
export const PUBLIC_LIABILITY_BANDS = [
  { from: 0, limit: 2_000_000 },
  { from: 1_000_000, limit: 5_000_000 },
  { from: 5_000_000, limit: 10_000_000 },
] as const satisfies readonly LimitBand[];

/** Employers liability limit in pounds, whatever the contract value (decisions.md §1). */
export const EMPLOYERS_LIABILITY_LIMIT = 10_000_000;
