import { isBlank } from '@/lib/text';
import type { DueDiligenceDraft } from './stores/draft-store';

/** The required text fields (spec §5) and the message under each when it is empty. */
export const REQUIRED_FIELDS = {
  projectName: 'Enter the project name',
  projectAddress: 'Enter the project address',
  cityAndPostcode: 'Enter the city and postcode',
  projectDescription: 'Enter a short description of the project',
} as const satisfies Partial<Record<keyof DueDiligenceDraft, string>>;

export type RequiredField = keyof typeof REQUIRED_FIELDS;

/** The required fields left empty (blank counts as empty), in the form's order. */
export function missingFields(draft: DueDiligenceDraft): RequiredField[] {
  return (Object.keys(REQUIRED_FIELDS) as RequiredField[]).filter((field) => isBlank(draft[field]));
}
