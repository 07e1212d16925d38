/**
 * The meetings schemas against the public contract, field by field: every field a request body of
 * the contract takes is a field of the sdk's request schema (with no extra one but api.md's own), and
 * every field a success answer sends is read by the sdk's response schema (but the write-only
 * credentials, which api.md says never come back). The conformance suite checks exchanges; with the
 * contract's objects open, only this catches a field the sdk forgot.
 */
import { strict as assert } from "node:assert";
import { z } from "zod";
import * as M from "../../sdk/schemas/meetings";
import * as L from "../../sdk/schemas/meetings-live";
import { loadContract, operationsOf, type Operation } from "../conformance/contract";

/** Every property path of a JSON schema (`/a/b`, `*` for array items), through anyOf/oneOf/allOf. */
function fieldPaths(schema: unknown, at = ""): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const s = schema as Record<string, unknown>;
  const out: string[] = [];
  for (const k of ["anyOf", "oneOf", "allOf"])
    if (Array.isArray(s[k])) for (const x of s[k]) out.push(...fieldPaths(x, at));
  if (typeof s.properties === "object" && s.properties !== null)
    for (const [k, v] of Object.entries(s.properties)) out.push(`${at}/${k}`, ...fieldPaths(v, `${at}/${k}`));
  if (s.items) out.push(...fieldPaths(s.items, `${at}/*`));
  return [...new Set(out)];
}

const ours = (schema: z.ZodType, io: "input" | "output"): Set<string> =>
  new Set(fieldPaths(z.toJSONSchema(schema, { io, unrepresentable: "any" })));

const json = (o: { content?: Record<string, { schema?: unknown }> } | undefined): unknown =>
  o?.content?.["application/json"]?.schema;

const data = (s: z.ZodType) => z.object({ success: z.boolean(), data: s });

const REQUESTS: Record<string, z.ZodType> = {
  create_meeting: M.MeetingCreateSchema,
  replace_meeting: M.MeetingReplaceSchema,
  update_meeting: M.MeetingUpdateSchema,
  KickPartcipants: L.SessionParticipantsWireSchema,
  MuteParticipants: L.SessionParticipantsWireSchema,
  MuteAllParticipants: L.MuteAllSchema,
  CreatePoll: L.PollCreateSchema,
  "start-livestreaming": L.LivestreamStartSchema,
  add_participant: L.ParticipantCreateSchema,
  edit_participant: L.ParticipantUpdateSchema,
};

const RESPONSES: Record<string, z.ZodType> = {
  get_all_meetings: M.MeetingListingSchema,
  create_meeting: data(M.MeetingSchema),
  get_meeting: data(M.MeetingSchema),
  replace_meeting: data(M.MeetingSchema),
  update_meeting: data(M.MeetingSchema),
  "get-v2-meetings-meetingId-active-livestream": data(L.LivestreamSchema),
  stop_livestreaming: data(L.LivestreamStoppedSchema),
  GetActiveSession: data(L.ActiveSessionSchema),
  KickPartcipants: data(L.SessionActionSchema),
  KickAllParticipants: data(L.KickAllResultSchema),
  MuteParticipants: data(L.SessionActionSchema),
  MuteAllParticipants: data(L.MuteAllResultSchema),
  CreatePoll: data(L.PollResultSchema),
  "livestream-session-details": data(L.LivestreamDetailsSchema),
  "start-livestreaming": data(L.LivestreamStartedSchema),
  get_meeting_participants: L.ParticipantListingSchema,
  add_participant: data(L.ParticipantSchema),
  get_meeting_participant: data(L.ParticipantSchema),
  edit_participant: data(L.ParticipantSchema),
  delete_meeting_participant: data(L.DeletedParticipantSchema),
  regenerate_token: data(L.ParticipantTokenSchema),
};

/** api.md's field beside the contract's (D: "Create body … share the fields below"). */
const API_MD_ONLY = new Set(["/transcribe_on_end"]);
/** Write-only: api.md says the service never returns them. */
const NEVER_RETURNED = /\/storage_config\/(access_key|secret|password|private_key)$/;

describe("meetings schemas against the public contract", () => {
  const operations: Operation[] = operationsOf(loadContract(), "meetings");

  it("has a request schema for every body and a response schema for every success of the 21 operations", () => {
    assert.equal(operations.length, 21);
    for (const op of operations) {
      if (fieldPaths(json(op.requestBody)).length)
        assert.ok(REQUESTS[op.operationId], `${op.operationId}: no request schema`);
      assert.ok(RESPONSES[op.operationId], `${op.operationId}: no response schema`);
    }
  });

  it("takes every request field the contract takes, and no other but api.md's", () => {
    for (const op of operations) {
      const schema = REQUESTS[op.operationId];
      if (!schema) continue;
      const contract = new Set(fieldPaths(json(op.requestBody)));
      const sdk = ours(schema, "input");
      assert.deepEqual(
        [...contract].filter((f) => !sdk.has(f)),
        [],
        `${op.operationId}: fields the sdk does not take`,
      );
      assert.deepEqual(
        [...sdk].filter((f) => !contract.has(f) && !API_MD_ONLY.has(f)),
        [],
        `${op.operationId}: fields the contract does not take`,
      );
    }
  });

  it("reads every field a success answer sends", () => {
    for (const op of operations) {
      const [status, answer] = Object.entries(op.responses).find(([k]) => k.startsWith("2")) ?? [];
      const schema = RESPONSES[op.operationId];
      assert.ok(status && schema, op.operationId);
      const sdk = ours(schema, "output");
      const unread = fieldPaths(json(answer)).filter((f) => !sdk.has(f) && !NEVER_RETURNED.test(f));
      assert.deepEqual(unread, [], `${op.operationId} ${status}: fields the sdk does not read`);
    }
  });

  it("uses the service's wire name of the bucket and refuses api.md's neutral one", () => {
    const body = { recording_config: { media_bucket_config: { enabled: false } } };
    const res = M.MeetingCreateSchema.safeParse(body);
    assert.equal(res.success, false);
    assert.deepEqual(
      res.error?.issues.map((i) => [i.path.join("."), i.message]),
      [["recording_config", "renamed to realtimekit_bucket_config"]],
    );
  });
});
