/** One bad input: the field's path (e.g. `lossOfRent.termMonths`) and a plain message. */
export interface PricingInputIssue {
  readonly field: string;
  readonly message: string;
}

/**
 * Thrown by every pricing function given input outside its domain. `issues` lists every bad
 * field, not only the first, so a form can mark them all at once. Nothing is ever clamped.
 */
export class PricingInputError extends Error {
  readonly issues: readonly PricingInputIssue[];

  constructor(issues: readonly PricingInputIssue[]) {
    super(
      `Invalid pricing input: ${issues.map((issue) => `${issue.field}: ${issue.message}`).join(' ')}`,
    );
    this.name = 'PricingInputError';
    this.issues = issues;
  }
}
