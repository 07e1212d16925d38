/** The build area's own errors: a script name that matches nothing, a redeploy that stopped at a step. */
import { AccountApiError } from "../errors";

/** The steps of rule 2, in order; a RedeployError names the one that failed. */
export const REDEPLOY_STEPS = {
  deployments: "1. list the script's deployments",
  version: "2. read the first version id of the first (active) deployment",
  builds: "3. list builds by that version id",
  metadata: "4. read the trigger uuid, branch and commit hash of the matching build",
  post: "5. post a build with that branch and commit hash",
} as const;
export type RedeployStep = keyof typeof REDEPLOY_STEPS;

/** `resolveScriptTag` found no script with that name (or tag) in the account. */
export class ScriptNotFoundError extends AccountApiError {
  readonly scriptName: string;
  constructor(scriptName: string, accountId: string, known: readonly string[]) {
    const list = known.length
      ? `; scripts in the account: ${known.slice(0, 10).join(", ")}${known.length > 10 ? ", …" : ""}`
      : "; the account has no scripts";
    super(
      "ERR_SCRIPT_NOT_FOUND",
      `no script named ${JSON.stringify(scriptName)} in account ${accountId}${list}`,
    );
    this.scriptName = scriptName;
  }
}

/** Rule 2 stopped at one of its steps; `step` says which and `cause` carries the underlying error. */
export class RedeployError extends AccountApiError {
  readonly step: RedeployStep;
  constructor(scriptName: string, step: RedeployStep, detail: string, cause?: unknown) {
    super(
      "ERR_REDEPLOY",
      `redeploy of ${JSON.stringify(scriptName)} failed at step ${REDEPLOY_STEPS[step]}: ${detail}`,
      {
        cause,
      },
    );
    this.step = step;
  }
}
