/**
 * `pulumi import <token> <name> <id>` hands read an id and nothing else. Most kinds find their
 * object from the id alone; three need a stored input the id must then carry, so their import id
 * is composite. Read answers the resource id (the part after the slash for BuildTrigger and
 * MeetingTemplate; ConfigRule's resource id is its import id).
 */
import { inputError } from "../errors";
import type { ProviderKind } from "../types";

export interface ImportTarget {
  /** The resource id read is asked for. */
  readonly id: string;
  /** The inputs read needs to find the object (what the state of a created resource would hold). */
  readonly state: Record<string, unknown>;
}

/**
 * The import id's form of each kind whose resource id is not enough to find the object: the inputs
 * its two parts fill, and whether the resource id is the whole import id or its second part.
 */
const COMPOSITE: Partial<
  Record<ProviderKind, { form: string; fields: readonly [string, string?]; idIsWhole: boolean }>
> = {
  BuildTrigger: { form: "<scriptName>/<triggerUuid>", fields: ["scriptName"], idIsWhole: false },
  MeetingTemplate: { form: "<appId>/<meetingId>", fields: ["appId"], idIsWhole: false },
  ConfigRule: { form: "<zoneId>/<ref>", fields: ["zoneId", "ref"], idIsWhole: true },
};

/** The import id each kind takes, in words, where it is not the resource id. */
export function importIdForm(kind: ProviderKind): string | undefined {
  return COMPOSITE[kind]?.form;
}

export function importTarget(kind: ProviderKind, importId: string): ImportTarget {
  const composite = COMPOSITE[kind];
  if (!composite) return { id: importId, state: {} };
  const slash = importId.indexOf("/");
  if (slash <= 0 || slash === importId.length - 1)
    throw inputError("id", `a ${kind} is imported as ${composite.form}, not ${JSON.stringify(importId)}`);
  const [first, second] = composite.fields;
  const rest = importId.slice(slash + 1);
  return {
    id: composite.idIsWhole ? importId : rest,
    state: { [first]: importId.slice(0, slash), ...(second ? { [second]: rest } : {}) },
  };
}
