/** Client for the meetings area. */
import type { ApiClient } from "./client";

export class MeetingsApi {
  constructor(readonly client: ApiClient) {}
}
