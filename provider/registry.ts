/**
 * Where each resource's handler lives. Loaded lazily so a provider process only loads what its
 * stack uses.
 */
import { RESOURCE_KINDS, RUN_KINDS, type ProviderKind, type ResourceHandler } from "./types";

type AnyHandler = ResourceHandler<object, object>;

const LOADERS: Record<ProviderKind, () => AnyHandler> = {
  BuildTrigger: () => require("./resources/build-trigger/handler").handler,
  TriggerEnvVars: () => require("./resources/trigger-env-vars/handler").handler,
  RepoConnection: () => require("./resources/repo-connection/handler").handler,
  ZoneContentConverter: () => require("./resources/zone-content-converter/handler").handler,
  ConfigRule: () => require("./resources/config-rule/handler").handler,
  MeetingTemplate: () => require("./resources/meeting-template/handler").handler,
  DomainRegistration: () => require("./resources/domain-registration/handler").handler,
  SearchInstance: () => require("./resources/search-instance/handler").handler,
  BuildRun: () => require("./runs/build-run/handler").handler,
  EmailSend: () => require("./runs/email-send/handler").handler,
  SyncJobRun: () => require("./runs/sync-job-run/handler").handler,
};

/** A kind is data from state: only our names count, never an Object.prototype key. */
const isKind = (kind: string): kind is ProviderKind =>
  RESOURCE_KINDS.some((k) => k === kind) || RUN_KINDS.some((k) => k === kind);

export function handlerFor(kind: string): AnyHandler {
  if (!isKind(kind)) throw new Error(`account-api: unknown resource kind ${JSON.stringify(kind)}`);
  const handler = LOADERS[kind]();
  if (!handler) throw new Error(`account-api: resource kind ${kind} has no handler`);
  return handler;
}
