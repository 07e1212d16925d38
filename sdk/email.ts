/** Client for the email area. */
import type { ApiClient } from "./client";

export class EmailApi {
  constructor(readonly client: ApiClient) {}
}
