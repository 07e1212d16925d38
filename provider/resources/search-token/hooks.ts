/**
 * What SearchToken's description cannot say: the PUT is the whole token (the secret too), a delete
 * the service refuses while an instance names the token, and the natural key.
 *
 * The contract does not make names unique (the service takes a second token of the same name), so
 * the provider does, per account: a create looks the name up first. A token of that name with this
 * key id and `legacy` is this resource's own (an earlier attempt whose answer was lost made it) and
 * is adopted, its secret written again; any other is refused, naming `importId`. No marker is
 * written into the name: it is the user's, shown in the dashboard.
 */
import type { SearchToken as LiveToken } from "../../../sdk/search";
import { ConflictError } from "../../../sdk/errors";
import { SearchTokenBodySchema, type SearchTokenBody } from "../../../sdk/schemas/search-tokens";
import { toWire, type InputsOf } from "../../core/define";
import { orGone, type NaturalKey, type Reading, type Remote } from "../../core/pipeline";
import type { HandlerContext } from "../../types";
import { SearchTokenSpec } from "./spec";

export type SearchTokenInputs = InputsOf<typeof SearchTokenSpec>;

/** The body of a create and of every update (the PUT replaces the whole token). */
export function tokenBody(i: SearchTokenInputs): SearchTokenBody {
  return SearchTokenBodySchema.parse(toWire(SearchTokenSpec, i));
}

const account = (i: { accountId?: string | undefined }, ctx: HandlerContext) => ({
  accountId: ctx.accountId(i.accountId),
});

/** The service refused a delete because instances name the token by `token_id`. */
export class TokenInUseError extends Error {
  constructor(
    readonly tokenId: string,
    /** `<namespace>/<instanceId>` of each instance found naming it (none if the listing failed). */
    readonly instances: readonly string[],
    cause: ConflictError,
  ) {
    const users = instances.length ? `search instance ${instances.join(", ")}` : "a search instance";
    super(
      `search token ${tokenId} is used by ${users} (tokenId): delete those instances or give them ` +
        `another token first (a SearchInstance whose tokenId is this token's tokenId output is ` +
        `deleted before it); the service said: ${cause.message}`,
      { cause },
    );
    this.name = "TokenInUseError";
  }
}

/** `<namespace>/<instanceId>` of the account's instances that name the token, in every namespace. */
export async function instancesUsing(
  tokenId: string,
  accountId: string,
  ctx: HandlerContext,
): Promise<string[]> {
  const found: string[] = [];
  for await (const ns of ctx.api.search.namespaces.list({ accountId })) {
    const namespace = ns.name === "default" ? undefined : ns.name;
    for await (const inst of ctx.api.search.instances.list({ accountId, namespace }))
      if (inst.token_id === tokenId) found.push(`${ns.name}/${inst.id}`);
  }
  return found;
}

export const remote: Remote<typeof SearchTokenSpec, LiveToken> = {
  noun: "search token",
  idOf: (live) => live.id,
  get: (id, state, ctx) => orGone(ctx.api.search.tokens.get({ ...account(state, ctx), id })),
  create: (i, ctx) => ctx.api.search.tokens.create(account(i, ctx), tokenBody(i)),
  // Whatever changed (a rotated secret too), the PUT sends the whole token.
  update: (id, i, _changed, _olds, ctx) =>
    ctx.api.search.tokens.update({ ...account(i, ctx), id }, tokenBody(i)),
  async remove(id, state, ctx) {
    const { accountId } = account(state, ctx);
    try {
      await ctx.api.search.tokens.delete({ accountId, id });
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      const users = await instancesUsing(id, accountId, ctx).catch(() => []);
      throw new TokenInUseError(id, users, err);
    }
  },
};

export const key: NaturalKey<typeof SearchTokenSpec, LiveToken> = {
  keyField: "name",
  keyOf: (i) => `named "${i.name}"`,
  /** The token of this name, if any (the listing's search is a substring match: the name is compared). */
  async findByKey(i, ctx) {
    for await (const t of ctx.api.search.tokens.list(account(i, ctx), { perPage: 100, search: i.name }))
      if (t.name === i.name) return t;
    return undefined;
  },
  // The service takes a second token of the same name: a create whose answer was lost, or one an
  // interrupted engine left pending, is found by the name before the POST, not made twice.
  lookupBeforeCreate: true,
};

export const reading: Reading<typeof SearchTokenSpec, LiveToken> = {
  outputs: (live) => ({ createdBy: live.created_by ?? null, modifiedBy: live.modified_by ?? null }),
};
