import { deepFreeze } from '../core/deep-freeze';
import type { GuideStage, GuideTag, InsuranceName } from '../options';

/** One row of the insurance guide: who buys the insurance at each stage (null: not needed then). */
export interface InsuranceGuideRow {
  readonly insurance: InsuranceName;
  readonly stages: Readonly<Record<GuideStage, GuideTag | null>>;
}

/**
 * The insurance guide: when in a development each of the 15 insurances is needed and who buys it
 * (decisions.md §1 "Insurance guide"; the cells are the firm's advisory practice). Frozen.
 */
// prettier-ignore
export const insuranceGuide = /* @__PURE__ */ deepFreeze([
  { insurance: 'Contractors all risks (contract works)', stages: { 'Site Acquisition': null, Planning: null, Tender: 'Either or Joint Policy', Works: 'Either or Joint Policy', Completion: null } },
  { insurance: 'Existing structures (JCT option C)', stages: { 'Site Acquisition': null, Planning: null, Tender: 'Property Developer', Works: 'Property Developer', Completion: null } },
  { insurance: 'Public liability', stages: { 'Site Acquisition': null, Planning: null, Tender: 'Both needed', Works: 'Both needed', Completion: null } },
  { insurance: 'Employers liability', stages: { 'Site Acquisition': null, Planning: null, Tender: null, Works: 'Contractor', Completion: null } },
  { insurance: 'Professional indemnity', stages: { 'Site Acquisition': null, Planning: 'Property Developer', Tender: 'Both needed', Works: 'Both needed', Completion: 'Both needed' } },
  { insurance: 'Non-negligent liability (JCT 6.5.1)', stages: { 'Site Acquisition': null, Planning: null, Tender: 'Either or Joint Policy', Works: 'Either or Joint Policy', Completion: null } },
  { insurance: 'Structural warranty / latent defects', stages: { 'Site Acquisition': null, Planning: 'Property Developer', Tender: 'Property Developer', Works: 'Property Developer', Completion: 'Property Developer' } },
  { insurance: 'Delay in start-up / loss of rent', stages: { 'Site Acquisition': null, Planning: null, Tender: 'Property Developer', Works: 'Property Developer', Completion: null } },
  { insurance: 'Property owners liability', stages: { 'Site Acquisition': 'Property Developer', Planning: 'Property Developer', Tender: 'Property Developer', Works: null, Completion: 'Property Developer' } },
  { insurance: 'Title / legal indemnity', stages: { 'Site Acquisition': 'Property Developer', Planning: null, Tender: null, Works: null, Completion: null } },
  { insurance: 'Environmental / contaminated land', stages: { 'Site Acquisition': 'Property Developer', Planning: 'Property Developer', Tender: null, Works: 'Property Developer', Completion: null } },
  { insurance: 'Terrorism', stages: { 'Site Acquisition': null, Planning: null, Tender: null, Works: 'Either or Joint Policy', Completion: 'Property Developer' } },
  { insurance: 'Contractors plant (owned and hired-in)', stages: { 'Site Acquisition': null, Planning: null, Tender: null, Works: 'Contractor', Completion: null } },
  { insurance: 'Performance bond', stages: { 'Site Acquisition': null, Planning: null, Tender: 'Contractor', Works: 'Contractor', Completion: null } },
  { insurance: 'Completed / unsold buildings', stages: { 'Site Acquisition': null, Planning: null, Tender: null, Works: null, Completion: 'Property Developer' } },
] as const satisfies readonly InsuranceGuideRow[]);
