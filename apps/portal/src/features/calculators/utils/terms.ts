/** Plain-words explanations of the terms the calculators use, shown in tooltips and hints. */
export const TERMS = {
  sumInsured:
    'The amount the policy covers: the cost of rebuilding the works, usually the build contract value.',
  gdv: 'Gross development value: what the finished scheme is expected to be worth once sold or let.',
  ipt: 'Insurance Premium Tax: a tax the insurer collects on most general insurance premiums.',
  lossOfRent:
    'Pays the rent you expected if a defect covered by the warranty stops the homes being let.',
  programmeOfWorks:
    'How long the remaining building works are planned to take; loss of rent cover is charged for each month.',
  contractWorks:
    'The value of the building contract: the works and materials the policy insures until completion.',
  totalPercentage: 'The rates added together: the premium is this percentage of the sum insured.',
} as const satisfies Record<string, string>;
