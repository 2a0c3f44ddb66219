import type { DecimalString } from '../core/decimal';
import type {
  Contractor,
  DevelopmentType,
  FrameworkPropertyType,
  GuideTag,
  InsuranceName,
  Requirement,
  SchemeLocation,
} from '../options';

/** A condition on the framework's enumerated inputs: every listed field must match. */
export interface FrameworkCondition {
  readonly propertyType?: readonly FrameworkPropertyType[];
  readonly developmentType?: readonly DevelopmentType[];
  readonly contractor?: readonly Contractor[];
  readonly schemeLocation?: readonly SchemeLocation[];
  readonly hasBasement?: boolean;
  readonly hasFlatRoof?: boolean;
}

/** How strongly an insurance is advised, when, and why. The first rule that matches applies. */
export interface RequirementRule {
  readonly when?: FrameworkCondition;
  readonly required: Requirement;
  readonly why: string;
}

/** Who buys the insurance, when. The first rule that matches applies. */
export interface BuyerRule {
  readonly when?: FrameworkCondition;
  readonly buyer: GuideTag | 'Not required';
}

/** A note shown with the row. Every note that matches is shown, in order. */
export interface NoteRule {
  readonly when?: FrameworkCondition;
  readonly text: string;
}

/**
 * Where a row's value comes from: an input in pounds, one of the framework's limits, a percentage
 * of an input (floored to whole pounds), or a short text. A row that is `Not required` has no value.
 */
export type FrameworkValueSource =
  | { readonly input: 'contractValue' | 'gdv' | 'reinstatement' }
  | { readonly limit: 'professionalIndemnity' | 'publicLiability' | 'employersLiability' }
  | { readonly percentOf: 'contractValue'; readonly rate: DecimalString }
  | { readonly text: string };

/** One insurance of the framework and its rules. */
export interface FrameworkRowRules {
  readonly insurance: InsuranceName;
  readonly requirement: readonly RequirementRule[];
  readonly value: FrameworkValueSource;
  readonly buyer: readonly BuyerRule[];
  readonly notes: readonly NoteRule[];
}

const DEVELOPER_AS_CONTRACTOR = { contractor: ['Developer as contractor'] } as const;
const NOT_FIT_OUT = {
  developmentType: [
    'Conversion',
    'New Build (Ground Up)',
    'New Build (including exisiting structures on site)',
  ],
} as const satisfies FrameworkCondition;

/**
 * The insurance framework: the 15 insurances a development needs, with the firm's rules for when
 * each is required, its value, who buys it and the notes shown with it (decisions.md §1, rows 1–15
 * in order).
 */
export const FRAMEWORK_ROWS = [
  {
    insurance: 'Contractors all risks (contract works)',
    requirement: [
      {
        required: 'Required',
        why: 'Every JCT contract requires the works to be insured for their full reinstatement value from the start of work to practical completion.',
      },
    ],
    value: { input: 'contractValue' },
    buyer: [
      { when: DEVELOPER_AS_CONTRACTOR, buyer: 'Property Developer' },
      { buyer: 'Either or Joint Policy' },
    ],
    notes: [
      {
        text: 'Insures the works in progress and materials on site against physical loss or damage for the full contract value, in the joint names of employer and contractor. Add professional fees and debris removal to the sum insured, and check whether the funder must be named on the policy.',
      },
      {
        when: DEVELOPER_AS_CONTRACTOR,
        text: "With the developer as contractor there is no main contractor's policy to rely on: the developer insures the works in its own name.",
      },
    ],
  },
  {
    insurance: 'Existing structures (JCT option C)',
    requirement: [
      {
        when: {
          developmentType: [
            'Conversion',
            'Fit-Out',
            'New Build (including exisiting structures on site)',
          ],
        },
        required: 'Required',
        why: 'Work to or beside existing buildings puts them at risk, and JCT insurance option C makes the employer insure the existing structures and their contents.',
      },
      {
        required: 'Not required',
        why: 'A ground-up new build on a cleared site has no existing structures to insure.',
      },
    ],
    value: { input: 'reinstatement' },
    buyer: [{ buyer: 'Property Developer' }],
    notes: [
      {
        text: 'Insure the existing structures for their full reinstatement value (from a professional reinstatement valuation, not the market value), including demolition and site clearance. Tell the existing buildings insurer before works start, or the cover may lapse.',
      },
    ],
  },
  {
    insurance: 'Public liability',
    requirement: [
      {
        required: 'Required',
        why: 'Injury to the public and damage to third-party property are the most common claims on a building site, and contracts and local authorities ask for proof of cover.',
      },
    ],
    value: { limit: 'publicLiability' },
    buyer: [{ buyer: 'Both needed' }],
    notes: [
      {
        text: 'The contractor insures its liability for the works and the developer its liability as client and landowner. The limit rises with the contract value: £2m under £1m, £5m under £5m, £10m from £5m. Check neighbouring risks such as party walls, oversailing cranes and piling vibration.',
      },
    ],
  },
  {
    insurance: 'Employers liability',
    requirement: [
      {
        required: 'Required',
        why: "Employers liability insurance is compulsory by law (Employers' Liability (Compulsory Insurance) Act 1969) for anyone employing people on the site.",
      },
    ],
    value: { limit: 'employersLiability' },
    buyer: [
      { when: DEVELOPER_AS_CONTRACTOR, buyer: 'Property Developer' },
      { buyer: 'Contractor' },
    ],
    notes: [
      {
        text: 'Covers injury or illness of employees, including labour-only subcontractors treated as employees. £10m is the market standard limit; the legal minimum is £5m.',
      },
    ],
  },
  {
    insurance: 'Professional indemnity',
    requirement: [
      {
        required: 'Required',
        why: 'Design errors surface long after completion; contracts and funders require everyone with design responsibility to hold professional indemnity with a limit matched to the contract value.',
      },
    ],
    value: { limit: 'professionalIndemnity' },
    buyer: [
      { when: { contractor: ['Main contractor (JCT Design and Build)'] }, buyer: 'Contractor' },
      { buyer: 'Both needed' },
    ],
    notes: [
      {
        text: "Held by whoever carries design responsibility: under design and build the contractor takes it on; otherwise the developer's consultants and any contractor design portion both need cover. The limit shown is the minimum recommended (at least £5m under £5m of contract value), each and every claim, kept for 12 years after completion.",
      },
    ],
  },
  {
    insurance: 'Non-negligent liability (JCT 6.5.1)',
    requirement: [
      {
        when: { hasBasement: true },
        required: 'Required',
        why: "Digging a basement can undermine neighbouring buildings without anyone being negligent, and JCT 6.5.1 cover is the employer's only protection against those claims.",
      },
      {
        when: { schemeLocation: ['City Centre'] },
        required: 'Recommended',
        why: 'City-centre sites sit close to neighbouring buildings, so damage from vibration, weakened support or lowered ground water is a real risk even without negligence.',
      },
      {
        required: 'Optional',
        why: 'Without a basement or close city-centre neighbours, non-negligent damage to adjoining property is unlikely; buy it if the contract particulars call for it.',
      },
    ],
    value: { text: 'Amount stated in the contract particulars' },
    buyer: [{ buyer: 'Either or Joint Policy' }],
    notes: [
      {
        text: 'Insures the employer against damage to neighbouring property caused by the works without negligence: collapse, subsidence, vibration, weakening of support or lowering of ground water. Usually arranged by the contractor in joint names under JCT clause 6.5.1.',
      },
    ],
  },
  {
    insurance: 'Structural warranty / latent defects',
    requirement: [
      {
        when: { developmentType: ['Fit-Out'] },
        required: 'Not required',
        why: 'A fit-out neither creates nor alters the structure, so there is nothing for a structural warranty to cover.',
      },
      {
        when: { propertyType: ['Residential', 'Commercial- BTR', 'Commercial- PBSA'] },
        required: 'Required',
        why: 'Mortgage lenders, funders and buyers of residential, build-to-rent and student schemes require a 10-year structural warranty.',
      },
      {
        required: 'Recommended',
        why: 'Commercial buyers and funders usually expect latent defects cover; without it the developer carries structural defects after completion.',
      },
    ],
    value: { input: 'contractValue' },
    buyer: [{ buyer: 'Property Developer' }],
    notes: [
      {
        text: 'Pays to put right structural defects found in the 10 years after completion. Register the scheme with the warranty provider before works start: late registration is refused or costs more, and the provider inspects at key stages.',
      },
      {
        when: { hasBasement: true, ...NOT_FIT_OUT },
        text: 'Basement: expect extra inspections of the waterproofing and retaining structure, and a waterproofing design sign-off before cover is confirmed.',
      },
      {
        when: { hasFlatRoof: true, ...NOT_FIT_OUT },
        text: 'Flat roof: expect extra inspections of the membrane, falls and drainage, and evidence of a guaranteed roofing system.',
      },
    ],
  },
  {
    insurance: 'Delay in start-up / loss of rent',
    requirement: [
      {
        when: { propertyType: ['Commercial- BTR', 'Commercial- PBSA'] },
        required: 'Required',
        why: 'Build-to-rent and student schemes are financed on their rent; funders require cover for the rent lost when damage during the works delays opening.',
      },
      {
        required: 'Optional',
        why: 'Where the scheme is sold rather than let, a delay costs interest and holding costs rather than rent: worth pricing, not essential.',
      },
    ],
    value: { text: 'Anticipated rent for the indemnity period' },
    buyer: [{ buyer: 'Property Developer' }],
    notes: [
      {
        text: 'Pays the rent (or the extra interest and costs) lost when insured damage delays completion. Set the indemnity period long enough to rebuild and re-let, typically 12 to 36 months.',
      },
    ],
  },
  {
    insurance: 'Property owners liability',
    requirement: [
      {
        required: 'Required',
        why: "The owner of the land is liable for injury or damage arising from the site itself, before, during and after the works, apart from the contractor's liability.",
      },
    ],
    value: { limit: 'publicLiability' },
    buyer: [{ buyer: 'Property Developer' }],
    notes: [
      {
        text: 'Covers the developer as owner of the site: trespassers, boundary walls and fences, vacant buildings awaiting demolition. Start it when the land is bought and keep it until every unit is sold or handed over; the limit follows the public liability limit.',
      },
    ],
  },
  {
    insurance: 'Title / legal indemnity',
    requirement: [
      {
        required: 'Recommended',
        why: 'Defects in title (missing easements, restrictive covenants, rights of way or light) can stop or delay a development, and an indemnity policy costs far less than the remedy.',
      },
    ],
    value: { text: 'Completed development value' },
    buyer: [{ buyer: 'Property Developer' }],
    notes: [
      {
        text: "Buy it at site acquisition, once the solicitor's report on title has found the defects. Approach the insurer before contacting anyone who benefits from a covenant, or cover will be refused.",
      },
    ],
  },
  {
    insurance: 'Environmental / contaminated land',
    requirement: [
      {
        when: { schemeLocation: ['Urban', 'City Centre'] },
        required: 'Recommended',
        why: 'Urban and city-centre land has often had industrial uses, so contamination and the clean-up costs a regulator can impose are a real risk.',
      },
      {
        required: 'Optional',
        why: 'Greenfield land is less likely to be contaminated, though farm use, fly-tipping and made ground still occur; consider it if the site investigation finds anything.',
      },
    ],
    value: { text: 'Limit set from the site investigation' },
    buyer: [{ buyer: 'Property Developer' }],
    notes: [
      {
        text: 'Covers clean-up costs ordered by a regulator and third-party pollution claims from the site. Insurers rely on the phase 1 and phase 2 site investigations; policies can run for 10 years and pass to buyers.',
      },
    ],
  },
  {
    insurance: 'Terrorism',
    requirement: [
      {
        when: { schemeLocation: ['City Centre'] },
        required: 'Recommended',
        why: 'City-centre schemes are nearer likely targets, and standard contract works and property policies exclude terrorism.',
      },
      {
        required: 'Optional',
        why: 'Outside city centres the risk is lower, though a funder may still make terrorism cover a loan condition.',
      },
    ],
    value: { text: 'Reinstatement value of the works' },
    buyer: [{ buyer: 'Either or Joint Policy' }],
    notes: [
      {
        text: "Standard policies exclude terrorism; it is added for the works and the completed buildings through the insurer's Pool Re arrangement. Check the funder's facility agreement, which often requires it.",
      },
    ],
  },
  {
    insurance: 'Contractors plant (owned and hired-in)',
    requirement: [
      {
        required: 'Required',
        why: 'Plant is costly and often stolen or damaged, and hire agreements make the hirer responsible for hired-in plant.',
      },
    ],
    value: { text: 'Replacement value of the plant' },
    buyer: [
      { when: DEVELOPER_AS_CONTRACTOR, buyer: 'Property Developer' },
      { buyer: 'Contractor' },
    ],
    notes: [
      {
        text: 'Covers owned plant and tools and the liability for hired-in plant under the hire conditions, including continuing hire charges while a damaged item is replaced. The contract works policy does not cover plant.',
      },
    ],
  },
  {
    insurance: 'Performance bond',
    requirement: [
      {
        required: 'Recommended',
        why: 'A bond pays the employer a set sum, usually 10% of the contract value, if the contractor fails to perform or becomes insolvent, towards the cost of finishing the works.',
      },
    ],
    value: { percentOf: 'contractValue', rate: '10' },
    buyer: [{ when: DEVELOPER_AS_CONTRACTOR, buyer: 'Not required' }, { buyer: 'Contractor' }],
    notes: [
      {
        text: "Given by the contractor's surety or bank in the employer's favour, usually until practical completion; funders often require one.",
      },
      {
        when: DEVELOPER_AS_CONTRACTOR,
        text: 'With the developer as its own contractor there is no contractor to give a bond, so nobody buys one; a funder may ask for a completion guarantee instead.',
      },
    ],
  },
  {
    insurance: 'Completed / unsold buildings',
    requirement: [
      {
        required: 'Required',
        why: 'Contract works cover ends at practical completion, so unsold or unlet buildings must then be insured as property until each unit is sold or let.',
      },
    ],
    value: { input: 'gdv' },
    buyer: [{ buyer: 'Property Developer' }],
    notes: [
      {
        text: 'Starts at practical completion; reduce the sum insured as units are sold. Empty buildings carry unoccupancy conditions such as weekly inspections and services turned off.',
      },
      {
        when: { hasFlatRoof: true },
        text: 'Flat roof: insurers set hot-works conditions for roof repairs: a permit to work, extinguishers at hand and a fire watch for an hour after work stops.',
      },
    ],
  },
] as const satisfies readonly FrameworkRowRules[];
