/**
 * SearchInstance: a search instance (spec F, the public contract's instance) in the default namespace
 * or a named one, with every setting of the service's create and update bodies, its write-only
 * storage credentials, and its indexing stats among the outputs when `readStats` asks for them. The id
 * is `<namespace>/<instanceId>`.
 *
 * Identity (account, namespace, instance id) and what the service fixes at create (`type`, `source`,
 * `hybridSearchEnabled`) replace; a replacement deletes first only while the identity stays (ids are
 * unique per namespace). Every other setting updates in place with a PUT of all of them. The
 * server's defaults are the table's, so the stored inputs are complete and refresh shows drift on any
 * setting. Nested settings are camelCase here and snake_case on the wire.
 */
import { z } from "zod";
import {
  SEARCH_INSTANCE_DEFAULTS as D,
  SearchInstanceSchema,
  SearchNamespaceSchema,
  SearchStatsSchema,
  SearchInstanceFields as W,
  SourceParamsSchema,
  StorageCredentialsSchema,
} from "../../../sdk/schemas/search";
import { camelCased, defineResource, local, output, wire, type Codec } from "../../core/define";
import { contractInputs } from "../../core/from-contract";
import { fromApi, toApi } from "../../core/values";

const R = SearchInstanceSchema.shape;
const S = SearchStatsSchema.shape;

/** Crawl header names are the user's (`X-Api-Key`): they travel as given, never re-cased. */
const SOURCE_PARAMS_CODEC: Codec = {
  toWire: (v) => toApi(v, ["includeHeaders"]),
  fromWire: (v) => fromApi(v, ["include_headers"]),
};

export const SearchInstanceSpec = defineResource({
  kind: "SearchInstance",
  deleteBeforeReplace: "sameIdentity",
  fields: {
    /** Must equal instanceId: an instance's id never changes. */
    importId: local(W.id.optional()),
    /** A named namespace; absent (or "default") means the default one. */
    namespace: local(SearchNamespaceSchema.optional(), { identity: true }),
    /**
     * Every setting of the service's create and update bodies, as the contract types it, with the
     * server's defaults (so the stored inputs are complete and refresh shows drift on any setting).
     * Only the exceptions are written here.
     */
    ...contractInputs(
      W,
      {
        /** The instance's `id` (lowercase letters, digits, `-`, `_`), unique per namespace. */
        id: { name: "instanceId", flags: { identity: true } },
        /** The service fixes the data source at create: a change replaces. */
        type: { flags: { replaceOnChange: true } },
        source: { flags: { replaceOnChange: true } },
        /** Only the create body takes it (the service's update does not): a change replaces. */
        hybrid_search_enabled: { flags: { replaceOnChange: true } },
        /** Declared below: its credentials are an input of their own. */
        source_params: { omit: true },
      },
      D,
    ),
    /** The credentials are not among them: they are `storageCredentials`, the one secret input. */
    sourceParams: wire(
      "source_params",
      camelCased(SourceParamsSchema.omit({ storage_credentials: true })).optional(),
      {},
      SOURCE_PARAMS_CODEC,
    ),
    /**
     * The source's storage credentials: `source_params.storage_credentials` on the wire, never
     * returned. A top-level input so that only they are secret (a secret `sourceParams` would hide
     * every change to the prefix or patterns in previews).
     */
    storageCredentials: local(camelCased(StorageCredentialsSchema).optional(), {
      secret: true,
      writeOnly: true,
    }),
    /**
     * Also read the indexing counts into `stats` on create, refresh and update: a request of its own
     * each time (default false; `getSearchInstanceStats` reads them once, where a program needs them).
     */
    readStats: local(z.boolean().default(false)),

    createdAt: output("created_at", R.created_at),
    modifiedAt: output("modified_at", R.modified_at),
    createdBy: output("created_by", R.created_by.unwrap()),
    modifiedBy: output("modified_by", R.modified_by.unwrap()),
    status: output("status", R.status.unwrap()),
    enable: output("enable", R.enable.unwrap()),
    lastActivity: output("last_activity", R.last_activity.unwrap()),
    engineVersion: output("engine_version", R.engine_version.unwrap()),
    /** Set while `publicEndpointParams.enabled` is true. */
    publicEndpointId: output("public_endpoint_id", R.public_endpoint_id.unwrap()),
    /** Indexing counts, from the instance's stats: only while `readStats` is true. */
    stats: output(
      undefined,
      z.object({ queued: S.queued, running: S.running, completed: S.completed, error: S.error }),
    ),
  },
});
