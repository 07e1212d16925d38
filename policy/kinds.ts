/**
 * Which of this package's resources a policy is looking at, from the type token the engine gives it.
 * A TypeScript program's dynamic resources are `pulumi-nodejs:dynamic/account-api:<Kind>`
 * (provider/resource.ts); the native plugin's, used by YAML, Python and Go programs, are
 * `account-api:index:<Kind>`. Both carry the same inputs under the same names, so one rule covers both.
 */
import type { ResourceKind } from "../provider/types";

const TOKEN = /^(?:pulumi-nodejs:dynamic\/account-api|account-api:index):([A-Za-z]+)$/;

/** The kind a type token names, or undefined for anything not of this package. */
export function kindOfType(type: string): string | undefined {
  return TOKEN.exec(type)?.[1];
}

/** Whether `type` is `kind` of this package, in either form. */
export function isKind(type: string, kind: ResourceKind): boolean {
  return kindOfType(type) === kind;
}
