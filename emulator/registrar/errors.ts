/**
 * HTTP-level error codes of the registrar area. The spec does not show them (Errors: "registrar (HTTP
 * level) … not shown"); the emulator uses the 13000 range, documented in docs/areas/registrar.md.
 * They are distinct from workflow `error.code` strings, which live in the workflow body.
 */
import { EmulatorError } from "../http";

export const REGISTRAR_CODES = {
  invalidRequest: 13001,
  notFound: 13002,
  alreadyRegistered: 13003,
  notRegistrable: 13004,
  premiumNotSupported: 13005,
  domainLimit: 13006,
  workflowInProgress: 13007,
  registrationPending: 13008,
  notApplicable: 13009,
  deprecated: 13100,
} as const;

export function registrarNotFound(what: string): EmulatorError {
  return new EmulatorError(404, { code: REGISTRAR_CODES.notFound, message: `${what} not found` });
}

export function registrarConflict(code: number, message: string): EmulatorError {
  return new EmulatorError(409, { code, message });
}

export function unprocessable(code: number, message: string): EmulatorError {
  return new EmulatorError(422, { code, message });
}

export function invalid(message: string): EmulatorError {
  return new EmulatorError(400, { code: REGISTRAR_CODES.invalidRequest, message });
}
