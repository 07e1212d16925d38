/** The builds area's domain errors: codes in the 12000 range (public API), one constructor each. */
import { BUILD_ERROR_CODES as C } from "../../sdk/schemas/builds";
import { DomainError } from "../http";

/** The spec's wording for any unknown object, including a script name used where the tag belongs. */
export const NOT_FOUND_MESSAGE = "Resource not found";

/** The builds area's domain errors: codes in the 12000 range (public API). */
export const buildErrors = {
  notFound: () => new DomainError(404, { code: C.notFound, message: NOT_FOUND_MESSAGE }),
  invalid: (field: string, rule: string) =>
    new DomainError(400, { code: C.invalidRequest, message: `${field}: ${rule}` }),
  triggerLimit: (message: string) => new DomainError(400, { code: C.triggerLimit, message }),
  buildStopped: (outcome: string) =>
    new DomainError(400, {
      code: C.buildStopped,
      message: `Build cannot be cancelled: it already stopped (outcome ${outcome})`,
    }),
  missingReference: (field: string, what: string) =>
    new DomainError(400, { code: C.missingReference, message: `${field}: no ${what} with this UUID` }),
  inUse: (message: string) => new DomainError(400, { code: C.inUse, message }),
  conflict: (message: string) => new DomainError(409, { code: C.conflict, message }),
};
