/**
 * Stand-in for `provider/functions/table.ts` (the schema helper's, branch i19-schema) until it
 * lands: two entries of the agreed shape, one invoke and one side-effect function.
 */
import { z } from "zod";
import type { AccountApi } from "../../sdk/account-api";

export interface FunctionEntry<P extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly params: P;
  readonly result: R;
  readonly sideEffect?: { readonly instead: "BuildRun" | "EmailSend" | "SyncJobRun" };
  run(api: AccountApi, params: z.infer<P>): Promise<z.infer<R>>;
}

const checkDomain: FunctionEntry = {
  name: "checkDomain",
  description: "Whether a domain can be registered, and its price.",
  params: z.strictObject({ domainName: z.string(), accountId: z.string().optional() }),
  result: z.object({ name: z.string(), registrable: z.boolean() }).loose(),
  run: async (api, p) => {
    const { runCheckDomain }: typeof import("../functions/registrar") = require("../functions/registrar");
    return runCheckDomain(api, {
      domainName: String(p.domainName),
      ...(p.accountId ? { accountId: String(p.accountId) } : {}),
    });
  },
};

const triggerBuild: FunctionEntry = {
  name: "triggerBuild",
  description: "Starts a build.",
  params: z.strictObject({ triggerUuid: z.string() }),
  result: z.object({}).loose(),
  sideEffect: { instead: "BuildRun" },
  run: async () => ({}),
};

export const FUNCTIONS: readonly FunctionEntry[] = [checkDomain, triggerBuild];
export const INVOKES: readonly FunctionEntry[] = FUNCTIONS.filter((f) => !f.sideEffect);
export function functionNamed(name: string): FunctionEntry | undefined {
  return FUNCTIONS.find((f) => f.name === name);
}
