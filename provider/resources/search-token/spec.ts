/**
 * SearchToken: a search service token (`/ai-search/tokens`), the Cloudflare API token (its id and
 * secret) that a storage-backed SearchInstance names by `tokenId`. The id is the service's token id
 * (a UUID), also the import id.
 *
 * Every field of the contract's create body is an input and updates in place: the service's PUT is
 * whole, so an update sends the name, the key id and the secret again. `cfApiKey` is write-only (no
 * answer carries it): a Pulumi secret in state, and `cfApiKeyHash` shows a rotation, which is such a
 * PUT. Name, key id and `legacy` are read back: changed out of band they show as drift.
 */
import {
  SEARCH_TOKEN_DEFAULTS,
  SearchTokenBodySchema,
  SearchTokenSchema,
} from "../../../sdk/schemas/search-tokens";
import { defineResource, output } from "../../core/define";
import { contractInputs } from "../../core/from-contract";

const R = SearchTokenSchema.shape;

export const SearchTokenSpec = defineResource({
  kind: "SearchToken",
  /** The token's id is the resource id: known while an update is previewed. */
  idOutput: "tokenId",
  fields: {
    /** Every field of the create (and update) body; only the exceptions are written here. */
    ...contractInputs(
      SearchTokenBodySchema.shape,
      {
        /** The API token's secret, sent on create and with every update; a Pulumi secret in state. */
        cf_api_key: { flags: { secret: true, writeOnly: true } },
      },
      SEARCH_TOKEN_DEFAULTS,
    ),
    /** The service's id of the token (a UUID): what a SearchInstance's `tokenId` takes. */
    tokenId: output("id", R.id),
    enabled: output("enabled", R.enabled.unwrap()),
    createdAt: output("created_at", R.created_at),
    modifiedAt: output("modified_at", R.modified_at),
    createdBy: output("created_by", R.created_by.unwrap()),
    modifiedBy: output("modified_by", R.modified_by.unwrap()),
  },
});
