/**
 * The meetings area's errors as its contract shows them: `{ success: false, error: { code, message } }`
 * (one error, not the standard `errors[]`), with the HTTP status as the code. Several problems of one
 * request are one message, joined by "; ".
 */
import { DomainError } from "../http";

/** Every error answer of the area, injected faults and the shared auth's 401/403 included. */
export function meetingsErrorBody(e: DomainError): unknown {
  return {
    success: false,
    error: { code: e.status, message: e.errors.map((i) => i.message).join("; ") || `HTTP ${e.status}` },
  };
}

const fail = (status: number, message: string): DomainError =>
  new DomainError(status, { code: status, message });

/** 404: the thing is not there (a meeting of another app is not there either). */
export const missing = (what: string): DomainError => fail(404, `${what} not found`);

/** 404: nothing is going on in the meeting right now (no session, no livestream running). */
export const noneActive = (what: string, meetingId: string): DomainError =>
  fail(404, `no ${what} for meeting ${meetingId}`);

/** 400: participants, sessions and livestreams exist only while the meeting is ACTIVE. */
export const inactive = (meetingId: string): DomainError =>
  fail(400, `meeting ${meetingId} is INACTIVE: set its status to ACTIVE first`);

/** 409: the meeting already holds it. */
export const taken = (message: string): DomainError => fail(409, message);

/** 404: a kick or mute that names nobody who is in the session. */
export const nobodyNamed = (meetingId: string): DomainError =>
  fail(404, `none of the participants named is in the active session of meeting ${meetingId}`);
