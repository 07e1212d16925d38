/**
 * What a kind's folder declares about it beside its handler (`provider/resources/<kind>/kind.ts`,
 * `provider/runs/<run>/kind.ts`): the facts the native provider, discovery and adoption read, so
 * that each is written once, in the kind's own room. provider/kinds.ts finds each room; nothing
 * else names the kinds one by one.
 */
import type { AccountApi } from "../../sdk/account-api";
import type { Zone } from "../../sdk/schemas/content";
import type { DiscoveredObject, DiscoveryScope } from "../discovery/types";
import type { HandlerContext, ResourceHandler, ResourceKind } from "../types";
import type { ResourceSpec } from "./define";

/**
 * An import id made of inputs that read cannot find from the resource id alone (native/import-ids.ts
 * reads it; discovery writes it).
 */
export interface ImportForm {
  /** The import id in words, for messages and docs. */
  readonly form: string;
  /** The input each `/`-separated part fills, in order; `undefined` for a part that is only the id. */
  readonly parts: readonly (string | undefined)[];
  /** The resource id: the whole import id, or its last part. */
  readonly id: "whole" | "last";
}

/** Wraps the secrets inside an input that no field flag can say, leaf by leaf (native/secret-leaves.ts). */
export type SecretLeaves = (values: Record<string, unknown>) => Record<string, unknown>;

/** What a kind's lister is handed: the client, and how to record what it finds. */
export interface ListingWalk {
  readonly api: AccountApi;
  readonly accountId?: string;
  /** One listed object; its `importId` follows from the kind's import form. */
  object(
    kind: ResourceKind,
    ids: { id: string; resourceId: string },
    name: string,
    scope: DiscoveryScope,
    settings: Record<string, unknown>,
  ): DiscoveredObject;
  /** The kind could not be listed, and why. */
  gap(kind: ResourceKind, reason: string): void;
}

/** A realtime app as the apps listing shows it (one named with `--app` and not listed has its id only). */
export interface ListedApp {
  readonly id: string;
  readonly name?: string;
  readonly created_at?: string;
}
export type ListedScript = Awaited<ReturnType<AccountApi["builds"]["listScripts"]>>[number];
export type ListedTrigger = Awaited<ReturnType<AccountApi["builds"]["listTriggers"]>>[number];

/**
 * How a kind's objects are listed, inside the container that holds them: the account, each trigger
 * of each script, each realtime app named, each zone. discovery/list.ts walks the containers once
 * and asks every kind that lives in one.
 */
export type KindLister =
  | { readonly in: "account"; list(walk: ListingWalk): Promise<DiscoveredObject[]> }
  | {
      readonly in: "trigger";
      list(script: ListedScript, trigger: ListedTrigger, walk: ListingWalk): Promise<DiscoveredObject[]>;
    }
  | { readonly in: "app"; list(app: ListedApp, walk: ListingWalk): Promise<DiscoveredObject[]> }
  | { readonly in: "zone"; list(zone: Zone, walk: ListingWalk): Promise<DiscoveredObject[]> };

/** A secret among an adopted object's inputs that read cannot give back. */
export interface UnreadSecret {
  /** Where in the inputs: property names from the top. */
  readonly path: readonly string[];
  /** The name the placeholder's configuration key is made from. */
  readonly name: string;
  /** What it stands for, for the user who sets it. */
  readonly about: string;
}

/** What adopting a listed object of the kind needs beyond its handler's `read` (discovery/adopt.ts). */
export interface AdoptionFacts {
  /** Identity inputs the listing knows and a read by id alone does not give back. */
  identity?(object: DiscoveredObject): Record<string, string>;
  /** The state read is handed instead of the identity (besides the import target's). */
  seedState?(object: DiscoveredObject, ctx: HandlerContext): Promise<Record<string, unknown>>;
  /** Secrets among the inputs read that it cannot give back. */
  unreadSecrets?(object: DiscoveredObject, inputs: Record<string, unknown>): UnreadSecret[];
  /** The engine's import by id alone would not match the program: adopt with `importId` on create. */
  readonly onCreate?: true;
}

export interface KindRoom {
  /** The kind's description: the native schema's entry is made from it. */
  readonly spec: ResourceSpec;
  /** The kind's handler, loaded when first asked for (a provider host loads only its kind's). */
  handler(): ResourceHandler<object, object>;
  /** Where the import id is more than the resource id. */
  readonly importForm?: ImportForm;
  readonly secretLeaves?: SecretLeaves;
  /** A run's function: its parameters' words describe the run's inputs in the native schema. */
  readonly runFunction?: string;
  /** Resources only: how discovery lists the kind's objects. */
  readonly lister?: KindLister;
  readonly adoption?: AdoptionFacts;
}
