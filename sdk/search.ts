/** Client for the search area. */
import type { ApiClient } from "./client";

export class SearchApi {
  constructor(readonly client: ApiClient) {}
}
