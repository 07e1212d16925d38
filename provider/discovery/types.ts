/** What the shared lister (list.ts) answers: the objects of an account, and the kinds it could not list. */
import type { ResourceKind } from "../types";

/** Where an object lives, in the program's input names (what a resource adopting it sets). */
export type DiscoveryScope = {
  zoneId?: string;
  zoneName?: string;
  appId?: string;
  /** Absent for the default namespace, as SearchInstance stores it. */
  namespace?: string;
  scriptName?: string;
  triggerUuid?: string;
};

export interface DiscoveredObject {
  kind: ResourceKind;
  /** The `importId` the TypeScript resource takes to adopt it (`adoption.importIdOf`, else the resource id). */
  id: string;
  /** The id a stack's state holds for it once managed: what a stack's resources are compared by. */
  resourceId: string;
  /** The id `pulumi import account-api:index:<Kind>` takes (composite where the kind needs it). */
  importId: string;
  /** A short label for people (a domain, a title, `script/kind`). */
  name: string;
  scope: DiscoveryScope;
  /** The object as the API answers it (wire names): the live settings. */
  settings: Record<string, unknown>;
}

/** A kind that could not be listed (the listing answered 404, or nothing says where to look). */
export interface ListingGap {
  kind: ResourceKind;
  reason: string;
}

export interface ListOptions {
  /** Zone ids or names; absent: every zone of the account. */
  zones?: string[];
  /** Realtime apps (ids) to look in, a filter: every app of the account when left out. */
  apps?: string[];
  /** The account (default: the client's). */
  accountId?: string;
}

export interface AccountListing {
  objects: DiscoveredObject[];
  gaps: ListingGap[];
}
