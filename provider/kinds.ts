/**
 * The kinds table: where each kind's room is (core/room.ts). The registry, the shims, the native
 * schema, import ids, secret leaves, discovery and adoption read their per-kind facts through it.
 * Each room loads on demand, so a provider host loads only its own kind's area. The names and their
 * order are RESOURCE_KINDS and RUN_KINDS (types.ts), which the type below holds this table to.
 */
import type { KindRoom } from "./core/room";
import { RESOURCE_KINDS, RUN_KINDS, type ProviderKind } from "./types";

const ROOMS: Readonly<Record<ProviderKind, () => KindRoom>> = {
  BuildTrigger: () => require("./resources/build-trigger/kind").room,
  TriggerEnvVars: () => require("./resources/trigger-env-vars/kind").room,
  RepoConnection: () => require("./resources/repo-connection/kind").room,
  ZoneContentConverter: () => require("./resources/zone-content-converter/kind").room,
  ConfigRule: () => require("./resources/config-rule/kind").room,
  MeetingTemplate: () => require("./resources/meeting-template/kind").room,
  DomainRegistration: () => require("./resources/domain-registration/kind").room,
  SearchInstance: () => require("./resources/search-instance/kind").room,
  MeetingApp: () => require("./resources/meeting-app/kind").room,
  SearchNamespace: () => require("./resources/search-namespace/kind").room,
  SearchToken: () => require("./resources/search-token/kind").room,
  SendingDomain: () => require("./resources/sending-domain/kind").room,
  BuildRun: () => require("./runs/build-run/kind").room,
  EmailSend: () => require("./runs/email-send/kind").room,
  SyncJobRun: () => require("./runs/sync-job-run/kind").room,
};

/** Every kind the provider serves: the resources, then the runs. */
export const PROVIDER_KINDS: readonly ProviderKind[] = [...RESOURCE_KINDS, ...RUN_KINDS];

/** A kind is data from state: only our names count, never an Object.prototype key. */
export const isProviderKind = (kind: string): kind is ProviderKind => PROVIDER_KINDS.some((k) => k === kind);

/** The room of a kind, loaded on first use. */
export function roomOf(kind: ProviderKind): KindRoom {
  const room = ROOMS[kind]();
  // A row pointing at another kind's folder would serve that kind under this name.
  if (room.spec.kind !== kind)
    throw new Error(`account-api: the room of ${kind} describes ${room.spec.kind}`);
  return room;
}
