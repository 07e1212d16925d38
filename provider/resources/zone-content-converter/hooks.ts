/**
 * What ZoneContentConverter's description cannot say: its id is its zone's (so must an importId
 * be), the setting is read and written through the zone, and delete turns it off.
 */
import type { ContentConverterSetting } from "../../../sdk/content";
import type { ContentConverterValue } from "../../../sdk/schemas/content";
import type { InputsOf } from "../../core/define";
import { orGone, type Remote, type Checks, type InputIssue, type Known } from "../../core/pipeline";
import type { HandlerContext } from "../../types";
import { ZoneContentConverterSpec } from "./spec";

type Spec = typeof ZoneContentConverterSpec;
export type ZoneContentConverterInputs = InputsOf<Spec>;

export function rules(i: ZoneContentConverterInputs, known: Known): InputIssue[] {
  if (i.importId !== undefined && known("importId") && known("zoneId") && i.importId !== i.zoneId)
    return [{ field: "importId", rule: "must equal zoneId (the setting's id is its zone's)" }];
  return [];
}

const set = (
  zoneId: string,
  value: ContentConverterValue,
  ctx: HandlerContext,
): Promise<ContentConverterSetting> => ctx.api.content.contentConverter.set({ zoneId }, { value });

export const remote: Remote<Spec, ContentConverterSetting> = {
  noun: "zone",
  idOf: (_live, i) => i.zoneId,
  get: (zoneId, _state, ctx) => orGone(ctx.api.content.contentConverter.get({ zoneId })),
  create: (i, ctx) => set(i.zoneId, i.value, ctx),
  update: (zoneId, i, _changed, _olds, ctx) => set(zoneId, i.value, ctx),
  async remove(zoneId, _state, ctx) {
    await set(zoneId, "off", ctx);
    ctx.log(
      `ZoneContentConverter: content_converter of zone ${zoneId} set off (a zone setting cannot be deleted)`,
    );
  },
};

export const checks: Checks<Spec> = {
  rules,
};
