/**
 * The meetings sdk's surface: every sub-resource method once in the `(ids, params, options?)`
 * convention, and every 0.1.0 flat method giving what its replacement gives (results and errors),
 * with DEPRECATED_MEETINGS_METHODS naming each of them.
 */
import { strict as assert } from "node:assert";
import { ValidationError, type AccountApi } from "../../sdk";
import { DEPRECATED_MEETINGS_METHODS, MeetingsApi } from "../../sdk/meetings";
import { useEmulator } from "../helpers/emulator";

const APP = "app-surface";

/** The flat methods of 0.1.0 (sdk/meetings.ts), written out so the table cannot shrink with the class. */
const FLAT_METHODS_0_1_0 = [
  "createMeeting",
  "getMeeting",
  "replaceMeeting",
  "updateMeeting",
  "listMeetings",
  "listAllMeetings",
  "addParticipant",
  "listParticipants",
  "listAllParticipants",
  "getParticipant",
  "updateParticipant",
  "deleteParticipant",
  "regenerateParticipantToken",
  "getActiveSession",
  "kickParticipants",
  "kickAllParticipants",
  "muteParticipants",
  "muteAllParticipants",
  "createPoll",
  "startLivestream",
  "getActiveLivestream",
  "stopLivestream",
  "getLivestreamDetails",
];

type Ids = { appId: string; meetingId?: string; participantId?: string };
type Method = (...args: unknown[]) => unknown;

/** Ids, tokens and stream keys the emulator makes at random replaced, so two equal calls compare equal. */
const RANDOM_FIELDS = new Set(["token", "stream_key"]);
function normalized(value: unknown): unknown {
  if (typeof value === "string")
    return value.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>");
  if (Array.isArray(value)) return value.map(normalized);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, RANDOM_FIELDS.has(k) ? "<random>" : normalized(v)]),
  );
}

/** A paged listing is compared by what it yields; a promise by what it settles with. */
async function settled(result: unknown): Promise<unknown> {
  if (result && typeof result === "object" && Symbol.asyncIterator in result) {
    const items: unknown[] = [];
    for await (const x of result as AsyncIterable<unknown>) items.push(x);
    return items;
  }
  return result;
}

describe("sdk meetings: the sub-resources and the deprecated flat methods", () => {
  const fx = useEmulator();

  async function meeting(api: AccountApi): Promise<Ids> {
    const m = await api.meetings.meetings.create({ appId: APP }, { title: "Standup" });
    return { appId: APP, meetingId: m.id };
  }

  /** A meeting with Alice added, and the token she joins with. */
  async function alice(api: AccountApi): Promise<{ ids: Ids; token: string }> {
    const at = await meeting(api);
    const p = await api.meetings.participants.add(at as Required<Ids>, {
      custom_participant_id: "alice",
      preset_name: "host",
      name: "Alice",
    });
    return { ids: { ...at, participantId: p.id }, token: p.token! };
  }

  /** Two meetings, one retired, so a filter that went missing would show. */
  async function twoMeetings(api: AccountApi): Promise<Ids> {
    const at = await meeting(api);
    const retro = await api.meetings.meetings.create({ appId: APP }, { title: "Retro" });
    await api.meetings.meetings.update({ appId: APP, meetingId: retro.id }, { status: "INACTIVE" });
    return at;
  }

  const participant = async (api: AccountApi): Promise<Ids> => (await alice(api)).ids;

  /** A meeting with Alice in its session (the control API stands in for the WebRTC client). */
  async function session(api: AccountApi): Promise<Ids> {
    const { ids, token } = await alice(api);
    const path = `/__emulator/meetings/accounts/${fx.em.accountId}/apps/${APP}/meetings/${ids.meetingId}/join`;
    assert.equal((await fx.http("POST", path, { body: { token } })).status, 200);
    return ids;
  }

  async function livestream(api: AccountApi): Promise<Ids> {
    const at = await meeting(api);
    await api.meetings.livestreams.start(at as Required<Ids>, { name: "town hall" });
    return at;
  }

  it("answers every method in the (ids, params, options?) convention", async () => {
    const { meetings, participants, activeSession, livestreams } = fx.api.meetings;
    const app = { appId: APP };
    const made = await meetings.create(app, { title: "Standup", persist_chat: true });
    const at = { appId: APP, meetingId: made.id };
    assert.equal(made.title, "Standup");
    assert.equal((await meetings.get(at)).persist_chat, true);
    assert.equal((await meetings.replace(at, { title: "Replaced" })).persist_chat, false, "PUT resets");
    assert.equal((await meetings.update(at, { title: "Renamed" })).title, "Renamed");
    await meetings.create(app, { title: "Retro" });
    const listed: string[] = [];
    for await (const m of meetings.list(app, { perPage: 1, search: "Retro" })) listed.push(m.title ?? "");
    assert.deepEqual(listed, ["Retro"]);
    assert.equal((await meetings.listAll(app, { perPage: 1 })).length, 2);
    assert.equal((await meetings.listAll(app, { status: "INACTIVE" })).length, 0);

    const alice = await participants.add(at, { custom_participant_id: "alice", preset_name: "host" });
    const bob = await participants.add(at, { custom_participant_id: "bob", preset_name: "guest" });
    const ids = { ...at, participantId: alice.id };
    const names: string[] = [];
    for await (const p of participants.list(at, { perPage: 1 })) names.push(p.custom_participant_id);
    assert.deepEqual(names, ["alice", "bob"]);
    assert.equal((await participants.listAll(at)).length, 2);
    assert.equal((await participants.get(ids)).custom_participant_id, "alice");
    assert.equal((await participants.update(ids, { name: "Alice" })).name, "Alice");
    const renewed = await participants.regenerateToken(ids);
    assert.notEqual(renewed.token, alice.token);
    const join = `/__emulator/meetings/accounts/${fx.em.accountId}/apps/${APP}/meetings/${at.meetingId}/join`;
    assert.equal((await fx.http("POST", join, { body: { token: renewed.token } })).status, 200);
    assert.equal((await fx.http("POST", join, { body: { token: bob.token } })).status, 200);

    assert.equal((await activeSession.get(at)).live_participants, 2);
    assert.equal((await activeSession.mute(at, { participant_ids: [alice.id] })).action, "mute");
    assert.equal((await activeSession.muteAll(at, { allow_unmute: true })).muted_participants_count, 2);
    const poll = await activeSession.createPoll(at, { question: "Lunch?", options: ["yes", "no"] });
    assert.equal(poll.poll?.question, "Lunch?");
    const kicked = await activeSession.kick(at, { custom_participant_ids: ["bob"] });
    assert.deepEqual(
      kicked.participants?.map((p) => p.id),
      [bob.id],
    );
    assert.equal((await activeSession.kickAll(at)).kicked_participants_count, 1);
    assert.equal((await participants.delete({ ...at, participantId: bob.id })).custom_participant_id, "bob");

    const started = await livestreams.start(at, { name: "town hall" });
    assert.equal((await livestreams.getActive(at)).id, started.id);
    const details = await livestreams.getDetails(at, { page_no: 1, per_page: 10 });
    assert.equal(details.livestreams?.[0]?.id, started.id);
    assert.equal((await livestreams.stop(at)).message, "livestream stopped");
  });

  it("lists and creates the account's apps (accountId optional), refusing a bad name before any request", async () => {
    const { apps } = fx.api.meetings;
    const made = await apps.create({}, { name: "support" });
    assert.equal(made.name, "support");
    const again = await apps.create({ accountId: fx.em.accountId }, { name: "support" });
    assert.notEqual(again.id, made.id, "names need not be unique: a second create makes a second app");
    const listed = await apps.list();
    assert.deepEqual(
      listed
        .filter((a) => a.name === "support")
        .map((a) => a.id)
        .sort(),
      [made.id, again.id].sort(),
    );
    const before = fx.em.requestLog.length;
    await assert.rejects(apps.create({}, { name: 7 } as never), ValidationError);
    assert.equal(fx.em.requestLog.length, before);
  });

  it("names every flat method of 0.1.0 in DEPRECATED_MEETINGS_METHODS, each to a method that exists", () => {
    assert.ok(Object.isFrozen(DEPRECATED_MEETINGS_METHODS));
    assert.deepEqual(Object.keys(DEPRECATED_MEETINGS_METHODS).sort(), [...FLAT_METHODS_0_1_0].sort());
    const onClass = Object.getOwnPropertyNames(MeetingsApi.prototype).filter((n) => n !== "constructor");
    assert.deepEqual(
      onClass.sort(),
      [...FLAT_METHODS_0_1_0].sort(),
      "the class holds only deprecated methods",
    );
    for (const [old, to] of Object.entries(DEPRECATED_MEETINGS_METHODS)) {
      assert.equal(typeof replacement(fx.api, to), "function", `${old} -> ${to}`);
    }
  });

  /** `meetings.create` -> the bound method `api.meetings.meetings.create`. */
  function replacement(api: AccountApi, to: string): Method {
    const [sub, name] = to.split(".") as [string, string];
    const resource = Reflect.get(api.meetings, sub) as object;
    const method = Reflect.get(resource, name) as Method;
    return method.bind(resource);
  }

  /**
   * How to call each deprecated method and its replacement alike: `setup` makes what the call acts on
   * (once, shared, for a read; once per call for a change), `params` the new call's body or query,
   * `flat` the old call's extra fields when they differ from `params` (the 0.1.0 camelCase names).
   */
  interface Case {
    setup: (api: AccountApi) => Promise<Ids>;
    shared?: boolean;
    params?: (ids: Ids) => Record<string, unknown>;
    flat?: Record<string, unknown>;
  }
  const app = async (): Promise<Ids> => ({ appId: APP });
  const cases: Record<string, Case> = {
    createMeeting: { setup: app, params: () => ({ title: "Made", persist_chat: true }) },
    getMeeting: { setup: meeting, shared: true },
    replaceMeeting: { setup: meeting, params: () => ({ title: "Replaced" }) },
    updateMeeting: { setup: meeting, params: () => ({ status: "INACTIVE" }) },
    listMeetings: {
      setup: twoMeetings,
      shared: true,
      params: () => ({ perPage: 1, search: "Retro", start_time: "2020-01-01T00:00:00Z" }),
      flat: { perPage: 1, search: "Retro", startTime: "2020-01-01T00:00:00Z" },
    },
    listAllMeetings: { setup: twoMeetings, shared: true, params: () => ({ perPage: 1, status: "INACTIVE" }) },
    addParticipant: {
      setup: meeting,
      params: () => ({ custom_participant_id: "bob", preset_name: "guest" }),
    },
    listParticipants: { setup: participant, shared: true, params: () => ({ perPage: 1 }) },
    listAllParticipants: { setup: participant, shared: true, params: () => ({}) },
    getParticipant: { setup: participant, shared: true },
    updateParticipant: { setup: participant, params: () => ({ name: "Renamed", preset_name: "viewer" }) },
    deleteParticipant: { setup: participant },
    regenerateParticipantToken: { setup: participant },
    getActiveSession: { setup: session, shared: true },
    kickParticipants: { setup: session, params: (ids) => ({ participant_ids: [ids.participantId] }) },
    kickAllParticipants: { setup: session },
    muteParticipants: { setup: session, params: () => ({ custom_participant_ids: ["alice"] }) },
    muteAllParticipants: { setup: session, params: () => ({ allow_unmute: false }) },
    createPoll: { setup: session, params: () => ({ question: "Lunch?", options: ["yes", "no"] }) },
    startLivestream: { setup: meeting, params: () => ({ name: "town hall" }) },
    getActiveLivestream: { setup: livestream, shared: true },
    stopLivestream: { setup: livestream },
    getLivestreamDetails: {
      setup: livestream,
      shared: true,
      params: () => ({ page_no: 1, per_page: 5 }),
      flat: { pageNo: 1, perPage: 5 },
    },
  };

  it("has a case for every deprecated method", () => {
    assert.deepEqual(Object.keys(cases).sort(), Object.keys(DEPRECATED_MEETINGS_METHODS).sort());
  });

  /** The ids a method's path takes (a meeting-level call is not handed the participant). */
  function pathIds(ids: Ids, to: string): Ids {
    if (to.startsWith("participants.") && !/\.(add|list|listAll)$/.test(to)) return ids;
    const { participantId: _p, ...meetingIds } = ids;
    if (to === "meetings.create" || to === "meetings.list" || to === "meetings.listAll")
      return { appId: ids.appId };
    return meetingIds;
  }

  for (const [old, to] of Object.entries(DEPRECATED_MEETINGS_METHODS)) {
    it(`${old} gives what ${to} gives`, async () => {
      const c = cases[old]!;
      const first = await c.setup(fx.api);
      const call = async (ids: Ids, deprecated: boolean): Promise<unknown> => {
        const at = pathIds(ids, to);
        const params = c.params?.(ids);
        if (deprecated) {
          const flat = { ...at, ...(c.flat ?? params) };
          return settled((Reflect.get(fx.api.meetings, old) as Method).call(fx.api.meetings, flat));
        }
        const method = replacement(fx.api, to);
        return settled(params === undefined ? method(at) : method(at, params));
      };
      const viaNew = await call(first, false);
      const viaOld = await call(c.shared ? first : await c.setup(fx.api), true);
      assert.deepEqual(normalized(viaOld), normalized(viaNew));
    });
  }

  it("refuses alike: the same error, before any request", async () => {
    const m = fx.api.meetings;
    const pairs: [Promise<unknown>, Promise<unknown>][] = [
      [m.createMeeting({ appId: "" }), m.meetings.create({ appId: "" }, {})],
      [
        m.createMeeting({ appId: APP, title: 5 } as never),
        m.meetings.create({ appId: APP }, { title: 5 } as never),
      ],
      [m.listAllMeetings({ appId: APP, perPage: 0 }), m.meetings.listAll({ appId: APP }, { perPage: 0 })],
      [
        m.listAllMeetings({ appId: APP, startTime: "yesterday" }),
        m.meetings.listAll({ appId: APP }, { start_time: "yesterday" }),
      ],
      [
        m.listAllParticipants({ appId: APP, meetingId: "m", perPage: 500 }),
        m.participants.listAll({ appId: APP, meetingId: "m" }, { perPage: 500 }),
      ],
      [
        m.getParticipant({ appId: APP, meetingId: "m", participantId: "" }),
        m.participants.get({ appId: APP, meetingId: "m", participantId: "" }),
      ],
      [
        m.muteAllParticipants({ appId: APP, meetingId: "m" } as never),
        m.activeSession.muteAll({ appId: APP, meetingId: "m" }, {} as never),
      ],
      [
        m.getLivestreamDetails({ appId: APP, meetingId: "m", pageNo: 0 }),
        m.livestreams.getDetails({ appId: APP, meetingId: "m" }, { page_no: 0 }),
      ],
    ];
    const before = fx.em.requestLog.length;
    for (const [viaOld, viaNew] of pairs) {
      const [a, b] = await Promise.allSettled([viaOld, viaNew]);
      assert.equal(a.status, "rejected");
      assert.equal(b.status, "rejected");
      const [ea, eb] = [(a as PromiseRejectedResult).reason, (b as PromiseRejectedResult).reason];
      assert.ok(ea instanceof ValidationError && eb instanceof ValidationError, String(ea));
      assert.equal(ea.message, eb.message);
    }
    assert.equal(fx.em.requestLog.length, before, "refused before any request");
  });
});
