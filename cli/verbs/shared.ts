/** What more than one verb group shares: waiting with a deadline. */
import type { Command } from "commander";
import { positiveInt, type CommonOptions } from "../io";

const THIRTY_MINUTES = 30 * 60_000;

/** The options of a verb that can wait until its work ends. */
export interface WaitOpts extends CommonOptions {
  wait?: boolean;
  deadline: number;
}

/** Adds `--deadline <ms>`, the longest wait, after the command's other options (help lists it there). */
export const withDeadline = (c: Command): Command =>
  c.option("--deadline <ms>", "longest wait in milliseconds", positiveInt, THIRTY_MINUTES);
