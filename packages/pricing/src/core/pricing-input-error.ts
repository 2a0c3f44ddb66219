/** One bad input: the field's path (e.g. `lossOfRent.termMonths`) and a plain message. */
export interface PricingInputIssue {
  readonly field: string;
  readonly message: string;
}

/**
 * The mark every PricingInputError carries. A registered symbol is the same in every copy of the
 * library, so the ESM and CommonJS builds (or two installed copies) recognise each other's errors.
 */
const BRAND = Symbol.for('@firm/pricing/PricingInputError');

/**
 * Thrown by every pricing function given input outside its domain. `issues` lists every bad
 * field, not only the first, so a form can mark them all at once. Nothing is ever clamped.
 */
export class PricingInputError extends Error {
  readonly issues: readonly PricingInputIssue[];

  /**
   * `error instanceof PricingInputError` holds for an error of any copy of the library (the ESM
   * and CommonJS builds each define this class: the dual-package hazard). A subclass keeps the
   * ordinary check. Never throws, whatever `value` is (a revoked Proxy included).
   *
   * The class is told from a subclass by what it extends (Error), not by naming it here: a class
   * that names itself inside its body is renamed `_PricingInputError` by the build, and loggers
   * print that name (constructor.name) for every error.
   */
  static override [Symbol.hasInstance](value: unknown): value is PricingInputError {
    if (Object.getPrototypeOf(this) !== Error) {
      return Function.prototype[Symbol.hasInstance].call(this, value);
    }
    try {
      return (
        typeof value === 'object' &&
        value !== null &&
        (value as { readonly [BRAND]?: unknown })[BRAND] === true
      );
    } catch {
      return false;
    }
  }

  constructor(issues: readonly PricingInputIssue[]) {
    super(
      `Invalid pricing input: ${issues.map((issue) => `${issue.field}: ${issue.message}`).join(' ')}`,
    );
    this.name = 'PricingInputError';
    this.issues = issues;
    Object.defineProperty(this, BRAND, { value: true });
  }
}
