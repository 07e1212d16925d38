/** The build service's two classic mistakes (an account-scoped token, a name where a tag goes), as hints. */
import { ApiError, errorFromResponse } from "../errors";

/** Which kind of path a request addresses, to explain a 404 (tag vs name). */
export type Scope = "build" | "script-name" | "script-tag";

const HINTS = {
  userScoped:
    'the build service accepts only user-scoped API tokens; an account-scoped token gets "Invalid token" — create a user API token with the build-configuration Edit permission',
  tagNotName:
    "build-service paths and external_script_id take the script's tag (a UUID, field `tag` of builds.scripts.list()), not its name — resolve a name with builds.scripts.resolveTag({ scriptName })",
  nameNotTag: "script paths take the script's name (field `id` of builds.scripts.list()), not its tag",
} as const;

/** Adds the build service's two classic hints to an API error, keeping its class. */
export function withBuildHint(error: unknown, scope: Scope): unknown {
  if (!(error instanceof ApiError)) return error;
  let hint: string | undefined;
  if (error.status === 401 && error.errors.some((e) => /invalid token/i.test(e.message)))
    hint = HINTS.userScoped;
  else if (error.status === 404 && scope === "script-tag") hint = HINTS.tagNotName;
  else if (error.status === 404 && scope === "script-name") hint = HINTS.nameNotTag;
  if (!hint) return error;
  return errorFromResponse({
    status: error.status,
    errors: error.errors,
    method: error.method,
    path: error.path,
    ...(error.requestId ? { requestId: error.requestId } : {}),
    body: error.body,
    hint,
  });
}
