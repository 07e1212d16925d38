/**
 * What the registrar's sub-resources share: their ids, the area's base path, the domain-name check,
 * and the workflow status read (both registrations, for a recovered create, and workflows use it).
 */
import { path, type ApiClient } from "../client";
import type { CallOptions } from "../core";
import {
  DomainNameSchema,
  WorkflowStatusSchema,
  type WorkflowKind,
  type WorkflowStatus,
} from "../schemas/registrar";
import { validate } from "../validate";

/** The ids of an account-level path (`/accounts/{account_id}/registrar/...`). */
export interface AccountIds {
  /** Falls back to the client's default account. */
  accountId?: string;
}

/** The ids of a domain's path (`.../registrations/{domain_name}`, `.../domains/{domain_name}`). */
export interface DomainIds extends AccountIds {
  domainName: string;
}

/** Sends `Prefer: respond-async`: the service answers 202 at once instead of waiting briefly. */
export const PREFER_ASYNC = { prefer: "respond-async" };

export function registrarBase(client: ApiClient, accountId: string | undefined): string {
  return path`/accounts/${client.account(accountId)}/registrar`;
}

/** The domain name, validated before any request; `context` names the call in the error. */
export function domainNameOf(name: string, context: string): string {
  return validate(DomainNameSchema, name, context);
}

/** GET `.../registrations/{domain_name}/registration-status` or `.../update-status`. */
export async function readWorkflowStatus(
  client: ApiClient,
  kind: WorkflowKind,
  ids: DomainIds,
  options: CallOptions,
): Promise<WorkflowStatus> {
  const name = domainNameOf(ids.domainName, `registrar.${kind}Status: domain_name`);
  const leaf = kind === "registration" ? "registration-status" : "update-status";
  return client.request({
    method: "GET",
    path: `${registrarBase(client, ids.accountId)}/registrations${path`/${name}/${leaf}`}`,
    schema: WorkflowStatusSchema,
    ...options,
  });
}
