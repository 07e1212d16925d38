/**
 * Where each resource's handler lives: its room's (provider/kinds.ts). Loaded lazily so a provider
 * process only loads what its stack uses.
 */
import { isProviderKind, roomOf } from "./kinds";
import type { ResourceHandler } from "./types";

type AnyHandler = ResourceHandler<object, object>;

export function handlerFor(kind: string): AnyHandler {
  if (!isProviderKind(kind)) throw new Error(`account-api: unknown resource kind ${JSON.stringify(kind)}`);
  const handler = roomOf(kind).handler();
  if (!handler) throw new Error(`account-api: resource kind ${kind} has no handler`);
  return handler;
}
