/**
 * Where each resource's handler lives. Loaded lazily so a provider process only loads what its
 * stack uses.
 */
import type { ResourceHandler, ResourceKind } from "./types";

type AnyHandler = ResourceHandler<object, object>;

const LOADERS: Record<ResourceKind, () => AnyHandler> = {
  BuildTrigger: () => require("./resources/build-trigger/handler").handler,
  TriggerEnvVars: () => require("./resources/trigger-env-vars/handler").handler,
  RepoConnection: () => require("./resources/repo-connection/handler").handler,
  ZoneContentConverter: () => require("./resources/zone-content-converter/handler").handler,
  ConfigRule: () => require("./resources/config-rule/handler").handler,
  MeetingTemplate: () => require("./resources/meeting-template/handler").handler,
  DomainRegistration: () => require("./resources/domain-registration/handler").handler,
  SearchInstance: () => require("./resources/search-instance/handler").handler,
};

export function handlerFor(kind: string): AnyHandler {
  const load = (LOADERS as Record<string, (() => AnyHandler) | undefined>)[kind];
  if (!load) throw new Error(`account-api: unknown resource kind ${JSON.stringify(kind)}`);
  const handler = load();
  if (!handler) throw new Error(`account-api: resource kind ${kind} has no handler`);
  return handler;
}
