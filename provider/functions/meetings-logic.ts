/** The logic of the meetings functions over an sdk client, in program naming (camelCase). */
import type { AccountApi } from "../../sdk/account-api";

export interface ListAppsParams {
  /** Defaults to the provider's account. */
  accountId?: string;
}

/** A realtime app: what MeetingTemplate's `appId` takes, and its name and creation time. */
export interface MeetingAppInfo {
  id: string;
  name: string | null;
  createdAt: string | null;
}

/** The logic of listApps: one GET of the account's apps (the contract has no paging). */
export async function runListApps(api: AccountApi, p: ListAppsParams): Promise<MeetingAppInfo[]> {
  const apps = await api.meetings.apps.list({ accountId: p.accountId });
  // An app without an id cannot be named anywhere: the contract marks the field optional, no more.
  return apps.flatMap((a) =>
    a.id ? [{ id: a.id, name: a.name ?? null, createdAt: a.created_at ?? null }] : [],
  );
}
