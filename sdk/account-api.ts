/**
 * The typed client: one object per area over one shared transport. Each area's client is made, and
 * its module (with its zod schemas) loaded, on first access: a provider host that serves one kind,
 * or a script that calls one area, loads that area only.
 */
import { ApiClient, type ClientOptions } from "./client";
import type { BuildsApi } from "./builds";
import type { ContentApi } from "./content";
import type { EmailApi } from "./email";
import type { MeetingsApi } from "./meetings";
import type { RegistrarApi } from "./registrar";
import type { SearchApi } from "./search";

interface Areas {
  builds: BuildsApi;
  email: EmailApi;
  content: ContentApi;
  meetings: MeetingsApi;
  registrar: RegistrarApi;
  search: SearchApi;
}

/** Each area's client, its module loaded when the client is first asked for. */
const MAKE: { [K in keyof Areas]: (client: ApiClient) => Areas[K] } = {
  builds: (client) => new (load.builds().BuildsApi)(client),
  email: (client) => new (load.email().EmailApi)(client),
  content: (client) => new (load.content().ContentApi)(client),
  meetings: (client) => new (load.meetings().MeetingsApi)(client),
  registrar: (client) => new (load.registrar().RegistrarApi)(client),
  search: (client) => new (load.search().SearchApi)(client),
};

const load = {
  builds: (): typeof import("./builds") => require("./builds"),
  email: (): typeof import("./email") => require("./email"),
  content: (): typeof import("./content") => require("./content"),
  meetings: (): typeof import("./meetings") => require("./meetings"),
  registrar: (): typeof import("./registrar") => require("./registrar"),
  search: (): typeof import("./search") => require("./search"),
};

export class AccountApi {
  readonly client: ApiClient;
  // Soft-private, not #private: a test may put a derived object (Object.create) in front of a client.
  private readonly areas: Partial<Areas> = {};

  constructor(options: ClientOptions = {}) {
    this.client = new ApiClient(options);
  }

  private area<K extends keyof Areas>(name: K): Areas[K] {
    return (this.areas[name] ??= MAKE[name](this.client));
  }

  get builds(): BuildsApi {
    return this.area("builds");
  }
  get email(): EmailApi {
    return this.area("email");
  }
  get content(): ContentApi {
    return this.area("content");
  }
  get meetings(): MeetingsApi {
    return this.area("meetings");
  }
  get registrar(): RegistrarApi {
    return this.area("registrar");
  }
  get search(): SearchApi {
    return this.area("search");
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
