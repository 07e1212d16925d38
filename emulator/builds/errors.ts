/** The builds area's errors: the usual envelope with codes in the 12000 range (public API). */
import { BUILD_ERROR_CODES as C } from "../../sdk/schemas/builds";
import { EmulatorError } from "../http";

/** The spec's wording for any unknown object, including a script name used where the tag belongs. */
export const NOT_FOUND_MESSAGE = "Resource not found";

export const buildErrors = {
  notFound: () => new EmulatorError(404, { code: C.notFound, message: NOT_FOUND_MESSAGE }),
  invalid: (field: string, rule: string) =>
    new EmulatorError(400, { code: C.invalidRequest, message: `${field}: ${rule}` }),
  triggerLimit: (message: string) => new EmulatorError(400, { code: C.triggerLimit, message }),
  buildStopped: (outcome: string) =>
    new EmulatorError(400, {
      code: C.buildStopped,
      message: `Build cannot be cancelled: it already stopped (outcome ${outcome})`,
    }),
  missingReference: (field: string, what: string) =>
    new EmulatorError(400, { code: C.missingReference, message: `${field}: no ${what} with this UUID` }),
  inUse: (message: string) => new EmulatorError(400, { code: C.inUse, message }),
  invalidToken: () => new EmulatorError(401, { code: C.invalidToken, message: "Invalid token" }),
  missingToken: () =>
    new EmulatorError(401, {
      code: C.missingToken,
      message: "Authentication required: send Authorization: Bearer <user-scoped API token>",
    }),
  forbidden: (permissions: readonly string[]) =>
    new EmulatorError(403, {
      code: C.forbidden,
      message: `Forbidden: the token lacks the permission ${permissions.join(" and ")}`,
    }),
  wrongAccount: () =>
    new EmulatorError(403, {
      code: C.wrongAccount,
      message: "Forbidden: the token does not belong to this account",
    }),
};
