/** What an area of the emulator receives and provides. State models stay in `state.ts`, HTTP in `routes.ts`. */
import type { FastifyInstance } from "fastify";
import type { AuthGuard } from "./auth";
import type { Clock } from "./clock";
import type { Store } from "./store";

export interface AreaContext {
  store: Store;
  clock: Clock;
  auth: AuthGuard;
  /** Origin of the running server (http://127.0.0.1:port), known once it listens; empty under inject. */
  origin(): string;
}

export type AreaPlugin = (app: FastifyInstance, ctx: AreaContext) => void | Promise<void>;

export interface AreaModule {
  name: string;
  /** Routes of the API, mounted under /client/v4. */
  api: AreaPlugin;
  /** Extra control routes for tests and users, mounted under /__emulator/<name>. */
  control?: AreaPlugin;
  /** Routes outside the API (the markdown edge serving pages), mounted at the root. */
  edge?: AreaPlugin;
}
