/**
 * `pulumi import <token> <name> <id>` hands read an id and nothing else. Read finds most objects
 * from their resource id alone, but the inputs it answers are what the live object shows, and some
 * inputs it never shows: the trigger a variable set belongs to, the zone of a setting, the app of a
 * meeting, the script of a trigger. Those kinds take an import id whose parts are these inputs; read
 * then gets them as the stored state a created resource would have, and answers them as inputs.
 */
import { inputError } from "../errors";
import type { ProviderKind } from "../types";

export interface ImportTarget {
  /** The resource id read is asked for. */
  readonly id: string;
  /** The inputs read needs to find the object (what the state of a created resource would hold). */
  readonly state: Record<string, unknown>;
}

interface ImportForm {
  /** The import id in words, for messages and docs. */
  readonly form: string;
  /** The input each `/`-separated part fills, in order; `undefined` for a part that is only the id. */
  readonly parts: readonly (string | undefined)[];
  /** The resource id: the whole import id, or its last part. */
  readonly id: "whole" | "last";
}

const FORMS: Partial<Record<ProviderKind, ImportForm>> = {
  BuildTrigger: { form: "<scriptName>/<triggerUuid>", parts: ["scriptName", undefined], id: "last" },
  MeetingTemplate: { form: "<appId>/<meetingId>", parts: ["appId", undefined], id: "last" },
  ConfigRule: { form: "<zoneId>/<ref>", parts: ["zoneId", "ref"], id: "whole" },
  TriggerEnvVars: { form: "<triggerUuid>", parts: ["triggerUuid"], id: "whole" },
  ZoneContentConverter: { form: "<zoneId>", parts: ["zoneId"], id: "whole" },
};

/** The import id a kind takes, in words, where it is more than the resource id. */
export function importIdForm(kind: ProviderKind): string | undefined {
  return FORMS[kind]?.form;
}

export function importTarget(kind: ProviderKind, importId: string): ImportTarget {
  const f = FORMS[kind];
  if (!f) return { id: importId, state: {} };
  // The last part takes the rest: a ref or a uuid holds no slash, but nothing is lost if one does.
  const split = importId.split("/");
  const values = [...split.slice(0, f.parts.length - 1), split.slice(f.parts.length - 1).join("/")];
  if (split.length < f.parts.length || values.some((v) => v === ""))
    throw inputError("id", `a ${kind} is imported as ${f.form}, not ${JSON.stringify(importId)}`);
  const state: Record<string, unknown> = {};
  f.parts.forEach((input, i) => {
    if (input !== undefined) state[input] = values[i];
  });
  return { id: f.id === "whole" ? importId : (values.at(-1) ?? importId), state };
}
