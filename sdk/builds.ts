/** Client for the builds area. */
import type { ApiClient } from "./client";

export class BuildsApi {
  constructor(readonly client: ApiClient) {}
}
