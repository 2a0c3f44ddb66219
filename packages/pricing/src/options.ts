/**
 * The option lists: every enumerated input and output of the library as `as const` arrays of the
 * exact labels the firm uses (portal-spec.md §9, decisions.md §1), with their union types.
 * Screens build their selects from these; nothing else repeats a label. The arrays are frozen: the
 * pricing functions check their inputs against these very arrays.
 */

import { deepFreeze } from './core/deep-freeze';

/** Building warranty build types. */
export const BUILD_TYPES = /* @__PURE__ */ deepFreeze(['New Build', 'Conversion'] as const);
export type BuildType = (typeof BUILD_TYPES)[number];

/** Project stages, shared by the building warranty and the BTR warranty. */
export const STAGES = /* @__PURE__ */ deepFreeze([
  'Not Started',
  'Part Complete',
  'Completed',
] as const);
export type Stage = (typeof STAGES)[number];

/** Loss-of-rent terms in months (BTR warranty). */
export const BTR_TERMS = /* @__PURE__ */ deepFreeze([12, 24, 36] as const);
export type BtrTermMonths = (typeof BTR_TERMS)[number];

/** Contractors all risks property types. */
export const CAR_PROPERTY_TYPES = /* @__PURE__ */ deepFreeze([
  'New Build Residential',
  'Residential Conversion',
  'New Build Commercial',
  'Commercial Conversion',
] as const);
export type CarPropertyType = (typeof CAR_PROPERTY_TYPES)[number];

/** Insurance framework property types (the hyphen spacing is the firm's). */
export const FRAMEWORK_PROPERTY_TYPES = /* @__PURE__ */ deepFreeze([
  'Residential',
  'Commercial- PBSA',
  'Commercial- BTR',
  'Commercial- Other',
] as const);
export type FrameworkPropertyType = (typeof FRAMEWORK_PROPERTY_TYPES)[number];

/** Insurance framework development types (the spelling "exisiting" is kept from the firm's list). */
export const DEVELOPMENT_TYPES = /* @__PURE__ */ deepFreeze([
  'Conversion',
  'New Build (Ground Up)',
  'New Build (including exisiting structures on site)',
  'Fit-Out',
] as const);
export type DevelopmentType = (typeof DEVELOPMENT_TYPES)[number];

/** Insurance framework contracting routes. */
export const CONTRACTORS = /* @__PURE__ */ deepFreeze([
  'Main contractor (JCT Design and Build)',
  'Main contractor (JCT Standard Building Contract)',
  'Developer as contractor',
  'Construction management (trade contracts)',
] as const);
export type Contractor = (typeof CONTRACTORS)[number];

/** Insurance framework scheme locations. */
export const SCHEME_LOCATIONS = /* @__PURE__ */ deepFreeze([
  'City Centre',
  'Urban',
  'Green',
] as const);
export type SchemeLocation = (typeof SCHEME_LOCATIONS)[number];

/** How strongly the framework advises an insurance. */
export const REQUIREMENTS = /* @__PURE__ */ deepFreeze([
  'Required',
  'Recommended',
  'Optional',
  'Not required',
] as const);
export type Requirement = (typeof REQUIREMENTS)[number];

/** Who buys an insurance (the insurance guide's four tags). */
export const GUIDE_TAGS = /* @__PURE__ */ deepFreeze([
  'Property Developer',
  'Contractor',
  'Either or Joint Policy',
  'Both needed',
] as const);
export type GuideTag = (typeof GUIDE_TAGS)[number];

/** The insurance guide's stages (its columns). */
export const GUIDE_STAGES = /* @__PURE__ */ deepFreeze([
  'Site Acquisition',
  'Planning',
  'Tender',
  'Works',
  'Completion',
] as const);
export type GuideStage = (typeof GUIDE_STAGES)[number];

/** The 15 insurances of the framework and the guide, in decisions.md §1 order. */
export const INSURANCES = /* @__PURE__ */ deepFreeze([
  'Contractors all risks (contract works)',
  'Existing structures (JCT option C)',
  'Public liability',
  'Employers liability',
  'Professional indemnity',
  'Non-negligent liability (JCT 6.5.1)',
  'Structural warranty / latent defects',
  'Delay in start-up / loss of rent',
  'Property owners liability',
  'Title / legal indemnity',
  'Environmental / contaminated land',
  'Terrorism',
  'Contractors plant (owned and hired-in)',
  'Performance bond',
  'Completed / unsold buildings',
] as const);
export type InsuranceName = (typeof INSURANCES)[number];
