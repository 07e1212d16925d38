/** Client for the registrar area. */
import type { ApiClient } from "./client";

export class RegistrarApi {
  constructor(readonly client: ApiClient) {}
}
