/**
 * What RepoConnection's description cannot say: the API has no read of one connection, so a
 * connection is found in the account's listing, and create and update are the same upsert.
 * The public API documents no listing (the emulator has one, docs/areas/builds.md): where the
 * listing answers 404, read keeps the stored state.
 *
 * Create sends the PUT alone, with no look-up before it: the PUT is an upsert keyed by the
 * repository, so what an earlier attempt made is the very object it writes again, and a connection
 * of the same repository made outside the program takes the program's settings (as the plain script
 * and the Terraform provider do; docs/assumptions.md). The listing serves read, recovery and the
 * look-up after a PUT whose outcome stayed unknown.
 */
import type { RepoConnection as Live } from "../../../sdk/schemas/builds";
import { RepoConnectionBodySchema } from "../../../sdk/schemas/builds";
import { toWire, type InputsOf } from "../../core/define";
import { orGone, type Remote, type NaturalKey, type Adoption, type Reading } from "../../core/pipeline";
import type { HandlerContext } from "../../types";
import { RepoConnectionSpec } from "./spec";

type Spec = typeof RepoConnectionSpec;
export type RepoConnectionInputs = InputsOf<Spec>;

/** Why a connection read from the stored state was not checked (the public API has no read). */
export const NO_LISTING =
  "the service documents no read or listing of repository connections (GET …/builds/repos/connections answered 404): the stored state was kept";
const UNCHECKED = "__unchecked_reason";

export const keyOf = (i: RepoConnectionInputs): string =>
  `${i.providerType}/${i.providerAccountId}/${i.repoId}`;
const liveKey = (c: Live): string => `${c.provider_type}/${c.provider_account_id}/${c.repo_id}`;

/** The account's connections, or undefined where the service offers no listing (404). */
const listing = (i: RepoConnectionInputs, ctx: HandlerContext): Promise<Live[] | undefined> =>
  orGone(ctx.api.builds.repos.connections.list({ accountId: ctx.accountId(i.accountId) }));

const upsert = (i: RepoConnectionInputs, ctx: HandlerContext): Promise<Live> =>
  ctx.api.builds.repos.connections.upsert(
    { accountId: ctx.accountId(i.accountId) },
    RepoConnectionBodySchema.parse(toWire(RepoConnectionSpec, i)),
  );

export const remote: Remote<Spec, Live> = {
  noun: "repository connection",
  idOf: (live) => live.repo_connection_uuid,
  async get(id, state, ctx) {
    const known = await listing(state, ctx);
    // Without a listing the stored state is all there is to read.
    if (!known)
      return { ...toWire(RepoConnectionSpec, state), repo_connection_uuid: id, [UNCHECKED]: NO_LISTING };
    return known.find((c) => c.repo_connection_uuid.toLowerCase() === id.toLowerCase());
  },
  create: upsert,
  update: (_id, i, _changed, _olds, ctx) => upsert(i, ctx),
  async remove(id, state, ctx) {
    await ctx.api.builds.repos.connections.delete({
      accountId: ctx.accountId(state.accountId),
      repoConnectionUuid: id,
    });
  },
};

export const key: NaturalKey<Spec, Live> = {
  keyOf,
  async findByKey(i, ctx) {
    return (await listing(i, ctx))?.find((c) => liveKey(c) === keyOf(i));
  },
};

export const adoption: Adoption<Spec, Live> = {
  adoptable(live, i) {
    if (live.provider_type === undefined || liveKey(live) === keyOf(i)) return undefined;
    return {
      field: "importId",
      rule: `repository connection ${live.repo_connection_uuid} is for ${liveKey(live)}, not ${keyOf(i)}`,
    };
  },
};

export const reading: Reading<Spec, Live> = {
  outputs: (live) => (typeof live[UNCHECKED] === "string" ? { uncheckedReason: live[UNCHECKED] } : {}),
};
