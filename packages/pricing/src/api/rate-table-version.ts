import { computeRateTableVersion } from '../core/rate-table-version';
import { RATE_TABLES } from '../tables/all-tables';
import { RATES_PUBLISHED } from '../tables/published';

/** Set by the build (tsup.config.ts) to the version computed at build time; absent when run from source. */
declare const __RATE_TABLE_VERSION__: string | undefined;

/**
 * The version of the rate tables every quote was computed with: the publication date plus a hash
 * of the tables' content, so changing any rate, band, limit or rule changes it. Stored with every
 * quote so it can be explained and reproduced later.
 */
export const RATE_TABLE_VERSION: string =
  typeof __RATE_TABLE_VERSION__ === 'string'
    ? __RATE_TABLE_VERSION__
    : /* @__PURE__ */ computeRateTableVersion(RATE_TABLES, RATES_PUBLISHED);
