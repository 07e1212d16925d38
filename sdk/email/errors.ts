/** Recognising the email table's errors in an `ApiError`. */
import { z } from "zod";
import { ApiError } from "../errors";
import { EMAIL_ERRORS, isEmailErrorCode, type EmailErrorCode } from "../schemas/email";

/** An email error recognised from the table: its code, the table's message and condition. */
export interface EmailErrorInfo {
  code: EmailErrorCode;
  status: number;
  message: string;
  condition: string;
  /** Field-level details the server gave (`errors[].detail`), e.g. `to: must be an email address`. */
  details: string[];
}

/** Only what `emailError` reads from an error body; entries without a string `detail` are skipped. */
const ErrorListSchema = z.looseObject({ errors: z.array(z.unknown()) });
const ErrorDetailSchema = z.looseObject({ detail: z.string() });

/**
 * Recognises an `ApiError` carrying one of the email table's codes (its `apiCode`); `code` narrows to
 * one row. Undefined for anything else, so it can guard a branch: `if (emailError(e, EmailErrorCode.TooBig))`.
 */
export function emailError(err: unknown, code?: EmailErrorCode): EmailErrorInfo | undefined {
  if (!(err instanceof ApiError) || !isEmailErrorCode(err.apiCode)) return undefined;
  if (code !== undefined && err.apiCode !== code) return undefined;
  const row = EMAIL_ERRORS[err.apiCode];
  const list = ErrorListSchema.safeParse(err.body);
  const details = (list.success ? list.data.errors : []).flatMap((e) => {
    const d = ErrorDetailSchema.safeParse(e);
    return d.success ? [d.data.detail] : [];
  });
  return { code: err.apiCode, status: row.status, message: row.message, condition: row.condition, details };
}
