/**
 * SearchNamespace: a named group of search instances (the public namespace operations). The id is
 * the namespace's `name`, which never changes (a change replaces); `description` updates in place
 * with a PUT. `default` always exists and cannot be deleted: it is not a SearchNamespace (an instance
 * without `namespace` lives in it). Deleting a namespace deletes the instances in it (the service's
 * rule): a SearchInstance whose `namespace` is this resource's `name` output is deleted first.
 *
 * Import: `importId` is the name, and must equal `name`.
 */
import {
  CreateNamespaceBodySchema as W,
  SearchNamespaceInfoSchema,
  SearchNamespaceSchema,
} from "../../../sdk/schemas/search";
import { defineResource, output } from "../../core/define";
import { contractInputs } from "../../core/from-contract";

const R = SearchNamespaceInfoSchema.shape;

export const SearchNamespaceSpec = defineResource({
  kind: "SearchNamespace",
  fields: {
    // The create body's fields, as the contract types them; the name as every search path takes it.
    ...contractInputs(
      { ...W.shape, name: SearchNamespaceSchema },
      {
        /** 1-32 lowercase letters, digits, `-` and `_`; not `default`. */
        name: { flags: { identity: true } },
      },
    ),
    createdAt: output("created_at", R.created_at),
  },
});
