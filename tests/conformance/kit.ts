/**
 * The shared shape of a conformance scenario: each area's helper writes
 * `tests/conformance/scenarios/<area>.ts` against these interfaces, and the runner
 * (conformance.test.ts) builds the kit, records every exchange and validates it against the contract.
 */
import type { AccountApi } from "../../sdk";
import type { RunningEmulator } from "../../emulator/index";

export type Area = "builds" | "email" | "content" | "meetings" | "registrar" | "search";

export const AREAS = [
  "builds",
  "email",
  "content",
  "meetings",
  "registrar",
  "search",
] as const satisfies readonly Area[];

export interface ConformanceKit {
  /** An sdk client on a fresh emulator; every exchange it makes is recorded and validated. */
  api: AccountApi;
  emulator: RunningEmulator;
  accountId: string;
  /** Sends a request as given (a body the sdk refuses on purpose, to observe the emulator's 4xx).
   *  Its response is validated; its request body is not (it is not the sdk's). `path` is relative to
   *  the API root (`/accounts/...`, `/zones/...`). */
  raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** Sends a request built from the contract's schemas, for an operation the sdk has no method for:
   *  its request body is validated as the sdk's is (and its answer). Same `path` as `raw`; a query
   *  goes in the path. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** Awaits a call that must fail with an ApiError of this HTTP status. */
  expectStatus(call: Promise<unknown>, status: number): Promise<void>;
}

/** Which contract file a scenario drives: the 112 operations, or the families' 31. */
export type ContractPart = "subset" | "families";

export interface AreaScenario {
  area: Area;
  /** Absent: the subset's (tests/conformance/scenarios/<area>.ts); the families' live in
   *  tests/conformance/scenarios/families/<area>.ts. */
  part?: ContractPart;
  /** Drives every operation of the area through the sdk against the emulator: each success, each
   *  documented 4xx the emulator can produce (404 on a missing id, 400 on a bad body via `raw`, 409),
   *  and, per operation that takes a body, one call with every request field set. */
  run(kit: ConformanceKit): Promise<void>;
}
