/** Client for the content area. */
import type { ApiClient } from "./client";

export class ContentApi {
  constructor(readonly client: ApiClient) {}
}
