/**
 * Errors with a meaning to the engine. A create that made something remote but could not finish
 * (a registration waiting for the user's action) throws PartialCreateError: the engine records the
 * resource with that id and properties, marked as failed to initialise, so nothing is orphaned and
 * the next `up` continues from it.
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

/** A provider-level failure that names the resource field and the rule. */
export class ResourceInputError extends Error {
  constructor(
    readonly kind: string,
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${kind}: ${field}: ${rule}`);
    this.name = "ResourceInputError";
  }
}
