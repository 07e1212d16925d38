/**
 * The registrar's supported extensions (`GET …/registrar/extensions`, `…/extensions/{extension}`),
 * read from the seeded registry (./catalogue): each with the contract's `metadata`, JSON Schema
 * documents for a registration and a transfer on it. No price: the contract's entry has none (the
 * public client declares none either); prices come from domain-check and the quote.
 */
import { z } from "zod";
import * as G from "../../sdk/generated/registrar";
import { SupportedExtensionSchema as ExtensionSchema } from "../../sdk/schemas/registrar";
import { AccountParams, answer, type Area } from "../define";
import { notFound } from "../http";
import { EXTENSIONS, UNSUPPORTED, type ExtensionInfo } from "./catalogue";
import { REGISTRAR_CODES, invalid } from "./state";

type ExtensionView = z.input<typeof ExtensionSchema>;

const Extension = AccountParams.extend({ extension: G.RegistrarExtensionsGetPath.shape.extension });

const PER_PAGE_DEFAULT = 20;
/** The registry's most years for one registration (public-api-notes: `years` is 1 to 10). */
const MAX_YEARS = 10;

function domainNameSchema(name: string): Record<string, unknown> {
  const suffix = name.replaceAll(".", "\\.");
  return { type: "string", pattern: `^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.${suffix}$` };
}

/** What `POST …/registrations` takes for a name on this extension, as the emulator checks it. */
function registrationSchema(name: string, info: ExtensionInfo): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    required: ["domain_name"],
    properties: {
      domain_name: domainNameSchema(name),
      years: { type: "integer", minimum: info.min_years, maximum: MAX_YEARS, default: info.min_years },
      auto_renew: { type: "boolean", default: false },
      privacy_mode: { type: "string", enum: ["redaction"], default: "redaction" },
    },
  };
}

/** Transfers in are not served by the emulator; the document says what one would take. */
function transferSchema(name: string): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    required: ["domain_name", "auth_code"],
    properties: { domain_name: domainNameSchema(name), auth_code: { type: "string", minLength: 1 } },
  };
}

function extensionView(name: string, info: ExtensionInfo): ExtensionView {
  return {
    metadata: { name, tld: name.slice(name.lastIndexOf(".") + 1) },
    registration_schema: registrationSchema(name, info),
    transfer_schema: transferSchema(name),
  };
}

function encodeCursor(name: string): string {
  return Buffer.from(`after:${name}`).toString("base64url");
}

/** Where the next page starts in `names`: after the extension the cursor names. */
function startAfter(cursor: string, names: readonly string[]): number {
  const m = /^after:(.+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const at = m ? names.indexOf(m[1]!) : -1;
  if (at < 0) throw invalid("cursor: must be a cursor returned by a previous page");
  return at + 1;
}

/**
 * `sort_by` `created_at` and `updated_at` order as `name` does: the seeded registry's extensions have
 * no dates of their own (all exist from the start).
 */
export function extensionRoutes<P, A>(area: Area<P, A, { account_id: string }>, base: string, read: P): void {
  area.get(
    `${base}/extensions`,
    {
      params: AccountParams,
      querystring: G.RegistrarExtensionsListQuery,
      response: z.array(ExtensionSchema),
      permissions: read,
    },
    ({ query }) => {
      const perPage = query.per_page ?? PER_PAGE_DEFAULT;
      if (!Number.isInteger(perPage) || perPage < 1)
        throw invalid("per_page: must be a whole number of at least 1");
      const names = Object.keys(EXTENSIONS)
        .filter((n) => query.name === undefined || n === query.name)
        .sort();
      if (query.direction === "desc") names.reverse();
      const rest = names.slice(query.cursor ? startAfter(query.cursor, names) : 0);
      const page = rest.slice(0, perPage);
      const cursor = rest.length > perPage ? encodeCursor(page.at(-1)!) : "";
      return answer(
        page.map((n) => extensionView(n, EXTENSIONS[n]!)),
        { resultInfo: { count: page.length, cursor, per_page: perPage } },
      );
    },
  );

  area.get(
    `${base}/extensions/:extension`,
    { params: Extension, response: ExtensionSchema, permissions: read },
    ({ params }) => {
      const name = params.extension.toLowerCase();
      const info = Object.hasOwn(EXTENSIONS, name) ? EXTENSIONS[name] : undefined;
      if (!info) {
        const reason = Object.hasOwn(UNSUPPORTED, name) ? UNSUPPORTED[name] : "extension_not_supported";
        throw notFound(`extension "${params.extension}" (${reason})`, REGISTRAR_CODES.notFound);
      }
      return extensionView(name, info);
    },
  );
}
