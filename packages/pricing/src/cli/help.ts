/** The `firm-pricing --help` text. */
export const HELP = `firm-pricing: the firm's exact pricing rules on the command line (@firm/pricing).

Usage
  firm-pricing quote building-warranty --build-type LABEL --stage LABEL --units N
                                       --sum-insured POUNDS --gdv POUNDS [--json]
  firm-pricing quote btr --stage LABEL --units N --sum-insured POUNDS --gdv POUNDS
                         [--anticipated-rental-income POUNDS --term-months 12|24|36
                          --programme-months 0|6|...|48] [--json]
  firm-pricing quote car --property-type LABEL --contract-works-value POUNDS [--json]
  firm-pricing recommend framework --property-type LABEL --contract-value POUNDS
                         --has-basement yes|no --development-type LABEL --gdv POUNDS
                         --contractor LABEL --scheme-location LABEL
                         --reinstatement POUNDS --has-flat-roof yes|no [--json]
  firm-pricing sweep building-warranty|btr|car [--csv] [OPTION VALUE ...]
  firm-pricing --help

Labels are the firm's, quoted when they contain spaces: --build-type "New Build",
--stage "Part Complete", --property-type "Commercial- BTR". Pounds are whole pounds;
1000000, 1,000,000 and 1_000_000 are the same.

quote and recommend print the result with its breakdown; --json prints the library's
result object instead. Loss of rent is included in a BTR quote when its options are given.

sweep prints the whole priced grid as CSV (--csv is the default and only format): every
option and every slider step of each input that enters the price. GDV (and BTR units) do
not enter the price and are held at their minimum. Any quote option fixes that dimension,
e.g. sweep btr --stage Completed --loss-of-rent no. The rate-table version and the row
count go to stderr. The full building warranty grid is about 1.5 million rows.

Exit codes: 0 done, 2 bad usage or input (every problem is printed), 1 unexpected failure.
`;
