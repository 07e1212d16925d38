/**
 * ZoneContentConverter: the zone setting `content_converter` (spec C), which turns markdown
 * conversion on for a whole zone. The resource id is the zone id (one setting per zone); changing the
 * zone replaces. A zone setting always exists, so create and update are both a PATCH, and delete sets
 * the value back to `off` (a setting cannot be deleted) and says so.
 *
 * Import: `importId` is the zone id, and must equal `zoneId`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { NotFoundError } from "../../sdk/errors";
import type { ZoneSetting } from "../../sdk/content";
import {
  ContentConverterValueSchema,
  ZoneIdSchema,
  type ContentConverterValue,
} from "../../sdk/schemas/content";
import { changedKeys, containsUnknown, isUnknown } from "../inputs";
import { AccountApiResource, registerArgs, type CommonArgs } from "../resource";
import type { CheckFailure, HandlerContext, ResourceHandler } from "../types";

export interface ZoneContentConverterArgs extends CommonArgs {
  /** The zone (at most 32 characters). Changing it replaces. */
  zoneId: pulumi.Input<string>;
  /** `on` (default) or `off`. */
  value?: pulumi.Input<ContentConverterValue>;
}

export interface ZoneContentConverterInputs {
  accountId?: string;
  importId?: string;
  zoneId: string;
  value: ContentConverterValue;
}

export interface ZoneContentConverterOutputs extends ZoneContentConverterInputs {
  editable: boolean;
  modifiedOn: string | null;
}

/** Inputs whose change replaces: which zone's setting this is. */
export const REPLACE_ON_CHANGE = ["accountId", "zoneId"] as const;
/** Server fields, and inputs check defaults (registered so the class exposes them as outputs). */
const OUTPUT_NAMES = ["value", "editable", "modifiedOn"];
const KNOWN_INPUTS = ["accountId", "importId", "zoneId", "value"];

/** Check failures of raw inputs, each naming the input and the rule. */
export function checkInputs(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const field = (
    name: string,
    schema: typeof ZoneIdSchema | typeof ContentConverterValueSchema,
    v: unknown,
  ): void => {
    if (isUnknown(v)) return;
    const r = schema.safeParse(v);
    if (!r.success)
      failures.push({ property: name, reason: `${name}: ${r.error.issues[0]?.message ?? "is invalid"}` });
  };
  if (news.zoneId === undefined) failures.push({ property: "zoneId", reason: "zoneId: required" });
  else field("zoneId", ZoneIdSchema, news.zoneId);
  if (news.value !== undefined) field("value", ContentConverterValueSchema, news.value);
  if (
    news.importId !== undefined &&
    !containsUnknown([news.importId, news.zoneId]) &&
    news.importId !== news.zoneId
  ) {
    failures.push({
      property: "importId",
      reason: "importId: must equal zoneId (the setting's id is its zone's)",
    });
  }
  for (const [k, v] of Object.entries(news)) {
    if (v !== undefined && ![...KNOWN_INPUTS, ...OUTPUT_NAMES].includes(k)) {
      failures.push({ property: k, reason: `${k}: is not a known field` });
    }
  }
  return failures;
}

export function outputsFrom(
  inputs: ZoneContentConverterInputs,
  live: ZoneSetting,
): ZoneContentConverterOutputs {
  return {
    ...inputs,
    value: live.value as ContentConverterValue,
    editable: live.editable,
    modifiedOn: live.modified_on,
  };
}

function inputPart(o: ZoneContentConverterInputs): ZoneContentConverterInputs {
  return {
    ...(o.accountId !== undefined ? { accountId: o.accountId } : {}),
    ...(o.importId !== undefined ? { importId: o.importId } : {}),
    zoneId: o.zoneId,
    value: o.value,
  };
}

async function patch(
  inputs: ZoneContentConverterInputs,
  value: ContentConverterValue,
  ctx: HandlerContext,
): Promise<ZoneSetting> {
  return ctx.api.content.setContentConverter({ zoneId: inputs.zoneId, value });
}

export const handler: ResourceHandler<ZoneContentConverterInputs, ZoneContentConverterOutputs> = {
  async check(_olds, news) {
    const failures = checkInputs(news);
    if (failures.length) return { failures };
    const inputs = inputPart(news as unknown as ZoneContentConverterInputs);
    return { inputs: { ...inputs, value: inputs.value ?? "on" } };
  },

  async diff(_id, olds, news) {
    const changed = changedKeys(inputPart(olds), inputPart(news), ["importId"]);
    const replaces = changed.filter((k) => (REPLACE_ON_CHANGE as readonly string[]).includes(k));
    return { changes: changed.length > 0, replaces, deleteBeforeReplace: true };
  },

  async create(inputs, ctx) {
    if (inputs.importId !== undefined) {
      try {
        await ctx.api.content.getZone({ zoneId: inputs.importId });
      } catch (e) {
        if (e instanceof NotFoundError)
          throw new Error(`importId: zone ${inputs.importId} not found; nothing to adopt`, { cause: e });
        throw e;
      }
    }
    const live = await patch(inputs, inputs.value, ctx);
    return { id: inputs.zoneId, outs: outputsFrom(inputs, live) };
  },

  async read(id, props, ctx) {
    let live: ZoneSetting;
    try {
      live = await ctx.api.content.getContentConverter({ zoneId: id });
    } catch (e) {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
    const outs = outputsFrom({ ...inputPart(props), zoneId: id }, live);
    return { id, props: outs, inputs: inputPart(outs) };
  },

  async update(_id, _olds, news, ctx) {
    return { outs: outputsFrom(news, await patch(news, news.value, ctx)) };
  },

  async delete(id, props, ctx) {
    try {
      await patch(props, "off", ctx);
    } catch (e) {
      if (e instanceof NotFoundError) return;
      throw e;
    }
    ctx.log(
      `ZoneContentConverter: content_converter of zone ${id} set off (a zone setting cannot be deleted)`,
    );
  },
};

export class ZoneContentConverter extends AccountApiResource {
  declare readonly accountId: pulumi.Output<string | undefined>;
  declare readonly zoneId: pulumi.Output<string>;
  declare readonly value: pulumi.Output<ContentConverterValue>;
  declare readonly editable: pulumi.Output<boolean>;
  declare readonly modifiedOn: pulumi.Output<string | null>;

  constructor(name: string, args: ZoneContentConverterArgs, opts?: pulumi.CustomResourceOptions) {
    super("ZoneContentConverter", name, registerArgs(args, OUTPUT_NAMES), opts);
  }
}
