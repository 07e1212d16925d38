/**
 * Triggers (`builds/triggers`, listed per script at `builds/workers/{script_tag}/triggers`): at most
 * two per script, one production and one preview.
 */
import { z } from "zod";
import { path, type ApiClient } from "../client";
import { createOnce, type CallOptions } from "../core";
import {
  TriggerCreateBodySchema,
  TriggerSchema,
  TriggerUpdateBodySchema,
  triggerKind,
  type Trigger,
  type TriggerCreateBody,
  type TriggerUpdateBody,
} from "../schemas/builds";
import { validate } from "../validate";
import { P, value, type AccountIds, type ScriptTagIds, type TriggerIds } from "./paths";

export class Triggers {
  constructor(readonly client: ApiClient) {}

  /** `result[]`: at most two, one production and one preview (see `triggerKind`). */
  async list(ids: ScriptTagIds, options: CallOptions = {}): Promise<Trigger[]> {
    const p = validate(P.scriptTag, ids, "builds.listTriggers");
    const a = this.client.account(p.accountId);
    return value(this.client, "script-tag", {
      method: "GET",
      path: path`/accounts/${a}/builds/workers/${ids.scriptTag}/triggers`,
      schema: z.array(TriggerSchema),
      ...options,
    });
  }

  /**
   * Creates a trigger. The POST is not repeated; after a connection failure the script's triggers are
   * read, and one of the same kind and name (the natural key: a script has one trigger per kind) means
   * the first attempt landed.
   */
  async create(ids: AccountIds, params: TriggerCreateBody, options: CallOptions = {}): Promise<Trigger> {
    const { accountId } = ids;
    validate(P.account, { accountId }, "builds.createTrigger");
    const body = validate(TriggerCreateBodySchema, params, "builds.createTrigger");
    const a = this.client.account(accountId);
    return createOnce(
      () =>
        value(this.client, "script-tag", {
          method: "POST",
          path: path`/accounts/${a}/builds/triggers`,
          body,
          schema: TriggerSchema,
          ...options,
        }),
      async () => {
        const landed = await this.list({ accountId: a, scriptTag: body.external_script_id }, options);
        return landed.find(
          (t) => t.trigger_name === body.trigger_name && triggerKind(t) === triggerKind(body),
        );
      },
    );
  }

  /** PATCH with any subset of the settings. */
  async update(ids: TriggerIds, params: TriggerUpdateBody, options: CallOptions = {}): Promise<Trigger> {
    const p = validate(
      P.trigger,
      { accountId: ids.accountId, triggerUuid: ids.triggerUuid },
      "builds.updateTrigger",
    );
    const body = validate(TriggerUpdateBodySchema, params, "builds.updateTrigger");
    const a = this.client.account(p.accountId);
    return value(this.client, "build", {
      method: "PATCH",
      path: path`/accounts/${a}/builds/triggers/${ids.triggerUuid}`,
      body,
      schema: TriggerSchema,
      ...options,
    });
  }

  async delete(ids: TriggerIds, options: CallOptions = {}): Promise<void> {
    const p = validate(P.trigger, ids, "builds.deleteTrigger");
    const a = this.client.account(p.accountId);
    await value(this.client, "build", {
      method: "DELETE",
      path: path`/accounts/${a}/builds/triggers/${ids.triggerUuid}`,
      schema: z.unknown(),
      ...options,
    });
  }

  /** Clears the trigger's cached dependencies and build artifacts. Repeating it is harmless. */
  async purgeCache(ids: TriggerIds, options: CallOptions = {}): Promise<void> {
    const p = validate(P.trigger, ids, "builds.purgeBuildCache");
    const a = this.client.account(p.accountId);
    await value(this.client, "build", {
      method: "POST",
      path: path`/accounts/${a}/builds/triggers/${ids.triggerUuid}/purge_build_cache`,
      schema: z.unknown(),
      idempotent: true,
      ...options,
    });
  }
}
