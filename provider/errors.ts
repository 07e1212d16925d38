/**
 * Errors with a meaning to the engine or the user.
 *
 * - PartialCreateError: a create that made something remote but could not finish (a registration
 *   waiting for the user's action). The engine records the resource with that id and properties,
 *   marked as failed to initialise, so nothing is orphaned and the next `up` continues from it.
 * - ResourceInputError: an input breaks a rule. It names the program's field and the rule; the
 *   runtime prefixes the resource kind and the operation.
 */
export class PartialCreateError<O extends object = object> extends Error {
  readonly id: string;
  readonly properties: O;
  readonly reasons: string[];
  constructor(id: string, properties: O, reasons: string[]) {
    super(reasons.join("; "));
    this.name = "PartialCreateError";
    this.id = id;
    this.properties = properties;
    this.reasons = reasons;
  }
}

export class ResourceInputError extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
    options?: { cause?: unknown },
  ) {
    super(`${field}: ${rule}`, options);
    this.name = "ResourceInputError";
  }
}

/** The one way a resource reports bad input: `inputError("kind", "must be production or preview")`. */
export function inputError(field: string, rule: string, cause?: unknown): ResourceInputError {
  return new ResourceInputError(field, rule, cause === undefined ? undefined : { cause });
}
