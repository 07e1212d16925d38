/**
 * Runs: an imperative operation (a build, a send, a sync job) held as a resource, so that it happens
 * when the resource is created and again only when one of its inputs or its `triggers` changes, as
 * Pulumi's Command provider does; a second `up` with nothing changed sends nothing. The pipeline is
 * the resources' own; these capabilities say what differs:
 * - every input replaces: a run is an event, and a changed one is a new event;
 * - read answers what the run recorded: there is nothing remote to compare, so a refresh neither drops
 *   nor changes it;
 * - create is sent once: no look-up can tell whether a lost answer's build or message happened, so an
 *   unknown outcome fails the step rather than risk doing it twice;
 * - delete undoes nothing (a message cannot be unsent), and says so.
 */
import { z } from "zod";
import type { Capabilities } from "../core/pipeline";
import { shaped } from "../core/shapes";
import { local, output, type Field, type InputsOf, type ResourceSpec } from "../core/define";
import type { HandlerContext } from "../types";

/** What a run recorded: its id (the build's, the job's, or the message's) and its result. */
export interface RunRecord {
  id: string;
  result: unknown;
}

/** Reruns the operation whenever one of these values changes (any JSON values, unknowns included). */
export const TRIGGERS_FIELD = local(
  z
    .array(z.unknown())
    .optional()
    .describe("Runs again whenever one of these values changes (any JSON values, unknowns included)."),
  { replaceOnChange: true },
);

/** An input of a run: any change replaces, i.e. runs again. */
export function runInput<Z extends z.ZodType>(type: Z) {
  return local(type, { replaceOnChange: true });
}

/**
 * The run's result, one output, so that no result field shadows an input of the same name. Not
 * checked (it is what the run recorded); `shape` is its form, for the package schema.
 */
export function resultOutput<T>(shape: z.ZodType<T>): Field<z.ZodType<T>, "output"> {
  return output(undefined, shaped<T>(shape));
}

/** The capabilities every run has: the record as its remote object, and the result as its output. */
export type RunCapabilities<S extends ResourceSpec> = Required<
  Pick<Capabilities<S, RunRecord>, "remote" | "reading">
>;

export function runCapabilities<S extends ResourceSpec>(o: {
  noun: string;
  /** What is left in place after a delete, for the line the user reads. */
  afterDelete: string;
  perform(inputs: InputsOf<S>, ctx: HandlerContext): Promise<RunRecord>;
}): RunCapabilities<S> {
  return {
    remote: {
      noun: o.noun,
      idOf: (live) => live.id,
      get: async (id, state) => ({ id, result: Reflect.get(state, "result") }),
      create: (inputs, ctx) => o.perform(inputs, ctx),
      // Every input replaces, so the engine never asks for an update; were it to, nothing runs again.
      update: async (id, _inputs, _changed, olds) => ({ id, result: Reflect.get(olds, "result") }),
      remove: async (id, _state, ctx) => {
        ctx.log(`${o.noun} ${id}: removed from the stack; ${o.afterDelete}`);
      },
    },
    reading: { outputs: (live) => ({ result: live.result }) },
  };
}
