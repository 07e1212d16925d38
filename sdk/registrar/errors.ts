/** The registrar area's own errors. */
import { AccountApiError } from "../errors";
import type {
  AvailabilityReason,
  DomainAvailability,
  WorkflowError,
  WorkflowKind,
  WorkflowStatus,
} from "../schemas/registrar";

/** A registration or update workflow ended in `failed`. Never retried automatically (spec E, States). */
export class WorkflowFailedError extends AccountApiError {
  /** The workflow's own error (`code`, `message`), distinct from HTTP error codes. */
  readonly error: WorkflowError;
  readonly workflow: WorkflowStatus;
  readonly domainName: string;
  readonly kind: WorkflowKind;
  constructor(domainName: string, kind: WorkflowKind, workflow: WorkflowStatus) {
    const error = workflow.error ?? { code: "unknown", message: "the workflow failed without an error body" };
    super(
      "ERR_WORKFLOW_FAILED",
      `${kind} workflow for ${domainName} failed: ${error.message} (${error.code}); review before trying again`,
    );
    this.error = error;
    this.workflow = workflow;
    this.domainName = domainName;
    this.kind = kind;
  }
}

/**
 * Why a domain cannot be registered through this API; `not_in_result` when the check left it out.
 * The check's reason is read openly: a reason the service adds later comes through as sent.
 */
export type NotRegistrableReason = AvailabilityReason | "not_in_result" | (string & {});

/** The check says the domain cannot be registered here (or it is premium, which this API refuses). */
export class NotRegistrableError extends AccountApiError {
  readonly domainName: string;
  readonly reason: NotRegistrableReason;
  readonly entry: DomainAvailability | undefined;
  constructor(domainName: string, reason: NotRegistrableReason, entry?: DomainAvailability) {
    super("ERR_NOT_REGISTRABLE", `${domainName}: cannot be registered through this API (${reason})`);
    this.domainName = domainName;
    this.reason = reason;
    this.entry = entry;
  }
}
