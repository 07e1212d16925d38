/**
 * The ids of the meetings area and the paths they build: every path starts at
 * `/accounts/{account}/realtime/kit/{app}`, and each id is validated as a named field so an error
 * says which one.
 */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import { AppIdSchema } from "../schemas/meetings";
import { validate } from "../validate";

/** An app of the account (`accountId` defaults to the client's). */
export interface AppIds {
  accountId?: string;
  appId: string;
}
/** A meeting of an app. */
export type MeetingIds = AppIds & { meetingId: string };
/** A participant of a meeting. */
export type ParticipantIds = MeetingIds & { participantId: string };

/** A path below the app, with the app's own path it hangs from. */
export interface AppPath {
  app: string;
  path: string;
}

const id = () => z.string().min(1, "must not be empty");
const AppIdsSchema = z.object({ appId: AppIdSchema });
const MeetingIdsSchema = AppIdsSchema.extend({ meetingId: id() });
const ParticipantIdsSchema = MeetingIdsSchema.extend({ participantId: id() });

/** Page sizes the service accepts. */
export const perPage = z
  .number()
  .int("must be a whole number")
  .min(1, "must be between 1 and 100")
  .max(100, "must be between 1 and 100")
  .optional();
export const pageNo = z.number().int("must be a whole number").min(1, "must be at least 1").optional();

/** `/accounts/{account}/realtime/kit/{app}`: every path of the area starts here. */
export function appPath(client: ApiClient, ids: AppIds, context: string): string {
  const { appId } = validate(AppIdsSchema, { appId: ids.appId }, context);
  return path`/accounts/${client.account(ids.accountId)}/realtime/kit/${appId}`;
}

export function meetingPath(client: ApiClient, ids: MeetingIds, context: string): AppPath {
  const valid = validate(MeetingIdsSchema, { appId: ids.appId, meetingId: ids.meetingId }, context);
  return { app: appPath(client, ids, context), path: path`/meetings/${valid.meetingId}` };
}

export function participantPath(client: ApiClient, ids: ParticipantIds, context: string): AppPath {
  const valid = validate(
    ParticipantIdsSchema,
    { appId: ids.appId, meetingId: ids.meetingId, participantId: ids.participantId },
    context,
  );
  const m = meetingPath(client, ids, context);
  return { app: m.app, path: `${m.path}${path`/participants/${valid.participantId}`}` };
}

/**
 * Splits a flat argument of the 0.1.0 methods into its ids and the rest (the body or query), for
 * the deprecated delegations.
 */
export function splitApp<T extends AppIds>(params: T): [AppIds, Omit<T, keyof AppIds>] {
  const { accountId, appId, ...rest } = params;
  return [{ accountId, appId }, rest];
}

export function splitMeeting<T extends MeetingIds>(params: T): [MeetingIds, Omit<T, keyof MeetingIds>] {
  const { accountId, appId, meetingId, ...rest } = params;
  return [{ accountId, appId, meetingId }, rest];
}

export function splitParticipant<T extends ParticipantIds>(
  params: T,
): [ParticipantIds, Omit<T, keyof ParticipantIds>] {
  const { accountId, appId, meetingId, participantId, ...rest } = params;
  return [{ accountId, appId, meetingId, participantId }, rest];
}
