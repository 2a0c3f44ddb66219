/**
 * The date the firm published the rate tables in this package. It is the readable half of
 * `RATE_TABLE_VERSION`; the other half is a hash of the tables, so a changed rate changes the
 * version even if this date is not updated.
 */
export const RATES_PUBLISHED = '2026-11-21';
