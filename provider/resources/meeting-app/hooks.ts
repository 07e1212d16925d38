/**
 * What MeetingApp's description cannot say: the API lists and creates apps and does nothing else, so
 * a read is a look-up in the listing (gone when absent), the name is the key a lost or repeated
 * create is found by, a name change is refused (it could only leave the first app behind), there is
 * no update, and delete leaves the app.
 */
import type { App } from "../../../sdk/meetings";
import type { InputsOf } from "../../core/define";
import type { Adoption, Checks, InputIssue, NaturalKey, Remote } from "../../core/pipeline";
import type { HandlerContext } from "../../types";
import { MeetingAppSpec } from "./spec";

export type MeetingAppInputs = InputsOf<typeof MeetingAppSpec>;
/** An app as the listing gives it, with the id the contract leaves optional. */
export type ListedApp = App & { id: string };

const hasId = (a: App): a is ListedApp => typeof a.id === "string" && a.id !== "";

/** Every app of the account that has an id, oldest first (the service's order where dates tie). */
export async function listedApps(accountId: string | undefined, ctx: HandlerContext): Promise<ListedApp[]> {
  const apps = (await ctx.api.meetings.apps.list({ accountId: ctx.accountId(accountId) })).filter(hasId);
  return apps
    .map((a, i) => ({ a, i }))
    .sort((x, y) => (x.a.created_at ?? "").localeCompare(y.a.created_at ?? "") || x.i - y.i)
    .map((x) => x.a);
}

/** Refuses a change of name: there is no rename, and a replace would leave the first app behind. */
export function nameChange(i: MeetingAppInputs, olds: Partial<MeetingAppInputs> | undefined): InputIssue[] {
  if (olds?.name === undefined || olds.name === i.name) return [];
  return [
    {
      field: "name",
      rule:
        `cannot change from ${JSON.stringify(olds.name)} to ${JSON.stringify(i.name)}: the API can neither ` +
        `rename nor delete an app, so a replacement would leave app ${JSON.stringify(olds.name)} behind; ` +
        `to make another app, declare another MeetingApp`,
    },
  ];
}

/** An app found by importId is adopted only under its own name (it cannot be renamed). */
export function nameMismatch(live: App, i: MeetingAppInputs): InputIssue | undefined {
  if (live.name === i.name) return undefined;
  const named = live.name === undefined ? "has no name" : `is named ${JSON.stringify(live.name)}`;
  return {
    field: "name",
    rule: `app ${live.id ?? ""} ${named}, and the API cannot rename an app: give its name to adopt it`,
  };
}

function ensureId(live: App): ListedApp {
  if (!hasId(live)) throw new Error("MeetingApp: the service answered an app without an id");
  return live;
}

export const remote: Remote<typeof MeetingAppSpec, ListedApp> = {
  noun: "app",
  idOf: (live) => live.id,
  async get(id, state, ctx) {
    return (await listedApps(state.accountId, ctx)).find((a) => a.id === id);
  },
  async create(i, ctx) {
    return ensureId(
      await ctx.api.meetings.apps.create({ accountId: ctx.accountId(i.accountId) }, { name: i.name }),
    );
  },
  // The name is the only input, and check refuses its change: nothing is ever updated.
  update() {
    return Promise.reject(new Error("MeetingApp: the API has no update of an app"));
  },
  async remove(id, state, ctx) {
    ctx.log(
      `MeetingApp: app ${id} (${JSON.stringify(state.name)}) left in place (the API cannot delete apps)`,
    );
    return Promise.resolve();
  },
};

export const checks: Checks<typeof MeetingAppSpec> = {
  // No API call: the previous inputs are all it needs, so a preview refuses the change.
  checkLive: (i, olds) => Promise.resolve(nameChange(i, olds)),
};

export const key: NaturalKey<typeof MeetingAppSpec, ListedApp> = {
  keyField: "name",
  keyOf: (i) => `named ${JSON.stringify(i.name)}`,
  /** The oldest app with this name: the one a program that made it earlier made first. */
  async findByKey(i, ctx) {
    return (await listedApps(i.accountId, ctx)).find((a) => a.name === i.name);
  },
  // An app has nothing but its name: one with this name is the app this resource describes.
  ours: () => true,
  // The API takes a second app with the same name, so only a look-up keeps a create from making one.
  lookupBeforeCreate: true,
};

export const adoption: Adoption<typeof MeetingAppSpec, ListedApp> = {
  adoptable: nameMismatch,
};
