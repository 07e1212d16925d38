/**
 * The program's own claims on a slot that only one object may hold (a script's production trigger),
 * as the checks of one deployment see them. One provider process checks every resource of a
 * deployment, so a second resource of the program taking the same slot is refused at preview, before
 * `up` has made the first: the plan never applies by halves. One instance lives in each provider
 * session: no module-level state.
 *
 * A claimant is the resource's checked inputs; the same resource checked again (a preview and its
 * update in one process) brings the same inputs and keeps its claim.
 */
export class SlotClaims {
  readonly #holders = new Map<string, string>();

  /** Claims `slot` for `claimant`; answers the other claimant when another one holds it already. */
  claim(slot: string, claimant: unknown): string | undefined {
    const id = canonical(claimant);
    const holder = this.#holders.get(slot);
    if (holder === undefined) this.#holders.set(slot, id);
    return holder === undefined || holder === id ? undefined : holder;
  }
}

/** JSON with object keys sorted: equal values give equal strings whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
