/**
 * The email families of issue 26 over HTTP: a zone's sending subdomains (with their DNS records) and
 * an account's suppressions.
 * Paths, queries and bodies are the generated schemas; answers are the contract's results.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import * as G from "../../sdk/generated/email";
import type { AreaContext } from "../area";
import { answer, defineArea, type AreaOptions } from "../define";
import { ContentModel } from "../content/state";
import type { EmailModel, SubdomainRecord, SuppressionRecord } from "./state";
import { SendingSubdomains } from "./subdomains";
import { Suppressions, pageOf } from "./suppressions";

/** The email area's rendering of failures (its table's codes), shared with the send routes. */
export type EmailWording = Pick<AreaOptions<unknown, unknown, unknown>, "envelope" | "invalid" | "fault">;
/** The email area's credential check: token, scope and email:send; the account's when one is given. */
export type EmailAuth = (req: FastifyRequest, accountId?: string) => void;

const SubdomainSchema = G.EmailSendingSubdomainsGetSendingSubdomainResult;
const Subdomain = G.EmailSendingSubdomainsGetSendingSubdomainPath;

/** A subdomain as the contract's results show it (the edit body's switches included). */
function subdomainView(s: SubdomainRecord): z.input<typeof SubdomainSchema> {
  return {
    tag: s.tag,
    name: s.name,
    enabled: s.enabled,
    dkim_selector: s.dkim_selector,
    return_path_domain: s.return_path_domain,
    preview_enabled: s.preview_enabled,
    drop_suppressed_recipients: s.drop_suppressed_recipients,
    created: s.created,
    modified: s.modified,
  };
}

export function subdomainRoutes(
  app: FastifyInstance,
  ctx: AreaContext,
  model: EmailModel,
  wording: EmailWording,
  authenticate: EmailAuth,
): void {
  const zones = new ContentModel(ctx.store, ctx.clock);
  /** Credentials first, then the zone (404), then that the token's account owns it. */
  const area = defineArea(app, {
    ...wording,
    auth: (req, _op: "subdomains", params: { zone_id: string }): SendingSubdomains => {
      authenticate(req);
      const zone = zones.getZone(params.zone_id);
      authenticate(req, zone.account.id);
      return new SendingSubdomains(model, zone);
    },
  });
  const SUBDOMAINS = "/zones/:zone_id/email/sending/subdomains";
  const one = { params: Subdomain, permissions: "subdomains" } as const;

  area.get(
    SUBDOMAINS,
    {
      params: G.EmailSendingSubdomainsListSendingSubdomainsPath,
      response: G.EmailSendingSubdomainsListSendingSubdomainsResult,
      permissions: "subdomains",
    },
    ({ auth: subdomains }) => subdomains.list().map(subdomainView),
  );

  area.post(
    SUBDOMAINS,
    {
      params: G.EmailSendingSubdomainsCreateSendingSubdomainPath,
      body: G.EmailSendingSubdomainsCreateSendingSubdomainBody,
      response: G.EmailSendingSubdomainsCreateSendingSubdomainResult,
      permissions: "subdomains",
    },
    ({ auth: subdomains, body }) => subdomainView(subdomains.create(body.name)),
  );

  area.post(
    `${SUBDOMAINS}/preview`,
    {
      params: G.EmailSendingSubdomainsPreviewSendingSubdomainPath,
      body: G.EmailSendingSubdomainsPreviewSendingSubdomainBody,
      response: G.EmailSendingSubdomainsPreviewSendingSubdomainResult,
      permissions: "subdomains",
    },
    ({ auth: subdomains, body }) => subdomains.preview(body.name),
  );

  area.get(`${SUBDOMAINS}/:subdomain_id`, { ...one, response: SubdomainSchema }, ({ auth, params }) =>
    subdomainView(auth.get(params.subdomain_id)),
  );

  area.patch(
    `${SUBDOMAINS}/:subdomain_id`,
    { ...one, body: G.EmailSendingSubdomainsEditBody, response: SubdomainSchema },
    ({ auth, params, body }) => subdomainView(auth.edit(params.subdomain_id, body)),
  );

  // The contract's DELETE result is the bare envelope (no `result`): the emulator answers `result: null`.
  area.delete(`${SUBDOMAINS}/:subdomain_id`, one, ({ auth, params }) => {
    auth.delete(params.subdomain_id);
    return null;
  });

  area.get(
    `${SUBDOMAINS}/:subdomain_id/dns`,
    { ...one, response: G.EmailSendingSubdomainsGetSendingSubdomainDnsResult },
    ({ auth, params }) => auth.dns(params.subdomain_id),
  );

  area.post(
    `${SUBDOMAINS}/:subdomain_id/dns`,
    { ...one, response: G.EmailSendingSubdomainsFixSendingSubdomainDnsResult },
    ({ auth, params }) => auth.fixDns(params.subdomain_id),
  );

  area.get(
    `${SUBDOMAINS}/:subdomain_id/dns/status`,
    { ...one, response: G.EmailSendingSubdomainsGetSendingSubdomainDnsStatusResult },
    ({ auth, params }) => auth.dnsStatus(params.subdomain_id),
  );
}

/**
 * A suppression as the contract's results show it: `created_at` (the record's creation) and
 * `read_only` (false: every suppression here was made through the API, which may change it).
 */
function suppressionView(s: SuppressionRecord): SuppressionAnswer {
  return {
    id: s.id,
    email: s.email,
    reason: s.reason,
    scope: s.scope,
    note: s.note,
    expires_at: s.expires_at,
    created_at: s.created,
    read_only: false,
  };
}

type SuppressionAnswer = Omit<SuppressionRecord, "created" | "modified"> & {
  created_at: string;
  read_only: boolean;
};

export function suppressionRoutes(
  app: FastifyInstance,
  model: EmailModel,
  wording: EmailWording,
  authenticate: EmailAuth,
): void {
  const area = defineArea(app, {
    ...wording,
    auth: (req, _op: "suppressions", params: { account_id: string }): Suppressions => {
      authenticate(req, params.account_id);
      return new Suppressions(model, params.account_id);
    },
  });
  const SUPPRESSIONS = "/accounts/:account_id/email/sending/suppressions";
  // The contract's results come from the client's declarations: no generated result schema to check.
  const one = { params: G.EmailSendingSuppressionsGetPath, permissions: "suppressions" } as const;

  area.get(
    SUPPRESSIONS,
    {
      params: G.EmailSendingSuppressionsListPath,
      querystring: G.EmailSendingSuppressionsListQuery,
      permissions: "suppressions",
    },
    ({ auth, query }) => {
      const page = pageOf(auth.list(query), query);
      return answer(page.items.map(suppressionView), { resultInfo: page.resultInfo });
    },
  );

  area.post(
    SUPPRESSIONS,
    {
      params: G.EmailSendingSuppressionsCreatePath,
      body: G.EmailSendingSuppressionsCreateBody,
      permissions: "suppressions",
    },
    ({ auth, body }) => suppressionView(auth.create(body)),
  );

  area.post(
    `${SUPPRESSIONS}/bulk`,
    {
      params: G.EmailSendingSuppressionsImportPath,
      body: G.EmailSendingSuppressionsImportBody,
      permissions: "suppressions",
    },
    ({ auth, body }) => auth.importEach(body.items),
  );

  area.get(`${SUPPRESSIONS}/:suppression_id`, one, ({ auth, params }) =>
    suppressionView(auth.get(params.suppression_id)),
  );

  area.patch(
    `${SUPPRESSIONS}/:suppression_id`,
    { ...one, params: G.EmailSendingSuppressionsEditPath, body: G.EmailSendingSuppressionsEditBody },
    ({ auth, params, body }) => suppressionView(auth.edit(params.suppression_id, body)),
  );

  area.delete(
    `${SUPPRESSIONS}/:suppression_id`,
    { ...one, params: G.EmailSendingSuppressionsDeletePath },
    ({ auth, params }) => ({
      id: auth.delete(params.suppression_id).id,
    }),
  );
}
