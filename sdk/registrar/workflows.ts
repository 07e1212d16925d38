/**
 * A registration's asynchronous workflows (`.../registrations/{domain_name}/registration-status` and
 * `.../update-status`): one `Workflows` per kind, read once (`status`) or polled to an end (`wait`).
 */
import { z } from "zod";
import type { ApiClient } from "../client";
import { callOptions, pollUntil, type CallOptions, type WaitOptions as PollWaitOptions } from "../core";
import type { Registration, WorkflowKind, WorkflowStatus } from "../schemas/registrar";
import { validate } from "../validate";
import { WorkflowFailedError } from "./errors";
import { domainNameOf, readWorkflowStatus, type DomainIds } from "./paths";
import { Registrations } from "./registrations";

export type WaitOutcome =
  | { state: "succeeded"; workflow: WorkflowStatus; registration: Registration }
  | { state: "action_required"; workflow: WorkflowStatus; action: string };

/**
 * Defaults: `deadlineMs` 15 minutes, `pollIntervalMs` 1 s doubling up to `maxPollIntervalMs` 15 s.
 */
export interface WorkflowWaitOptions extends PollWaitOptions {
  /** Called with every status read. */
  onProgress?: (workflow: WorkflowStatus) => void;
}

const WaitOptionsSchema = z.looseObject({
  deadlineMs: z.number().positive("must be > 0").optional(),
  pollIntervalMs: z.number().positive("must be > 0").optional(),
  maxPollIntervalMs: z.number().positive("must be > 0").optional(),
});

export class Workflows {
  readonly #registrations: Registrations;

  constructor(
    readonly client: ApiClient,
    readonly kind: WorkflowKind,
  ) {
    this.#registrations = new Registrations(client);
  }

  /** The workflow's current status, read once. */
  async status(ids: DomainIds, options: CallOptions = {}): Promise<WorkflowStatus> {
    return readWorkflowStatus(this.client, this.kind, ids, options);
  }

  /**
   * Polls the workflow with backoff until the table of spec E says to stop: returns the registration
   * on `succeeded`, returns `context.action` on `action_required` (it never resolves by itself), keeps
   * polling through `pending`, `in_progress` and `blocked`, and throws WorkflowFailedError on
   * `failed` without retrying.
   */
  async wait(ids: DomainIds, options: WorkflowWaitOptions = {}): Promise<WaitOutcome> {
    const kind = this.kind;
    const name = domainNameOf(ids.domainName, "registrar.waitForWorkflow: domain_name");
    validate(WaitOptionsSchema, options, "registrar.waitForWorkflow");
    const ref = { domainName: name, ...(ids.accountId ? { accountId: ids.accountId } : {}) };
    const workflow = await pollUntil(
      `${kind} workflow of ${name}`,
      (call) => readWorkflowStatus(this.client, kind, ref, call),
      (w) => {
        if (w.state === "failed") throw new WorkflowFailedError(name, kind, w);
        // pending, in_progress and blocked keep polling; action_required never resolves by itself.
        return w.state === "succeeded" || w.state === "action_required" ? w : undefined;
      },
      {
        ...options,
        deadlineMs: options.deadlineMs ?? 15 * 60_000,
        pollIntervalMs: options.pollIntervalMs ?? 1_000,
        maxPollIntervalMs: options.maxPollIntervalMs ?? 15_000,
        onProgress: (w) => options.onProgress?.(w),
        describe: (w) => w.state,
      },
    );
    if (workflow.state === "action_required") {
      return {
        state: "action_required",
        workflow,
        action: workflow.context?.action ?? "the service did not say which action is required",
      };
    }
    const registration =
      (kind === "registration" ? workflow.context?.registration : undefined) ??
      (await this.#registrations.get(ref, callOptions(options)));
    return { state: "succeeded", workflow, registration };
  }
}
