/**
 * The main job's program: one resource of each kind against the emulator.
 * `seed` makes what only the dashboard can make on the real service.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RunningEmulator } from "../../emulator/server";
import type { AccountApi } from "../../sdk";

export interface Seeded {
  accountId: string;
}

export async function seed(_api: AccountApi, em: RunningEmulator): Promise<Seeded> {
  return { accountId: em.accountId };
}

export async function program(seeded: Seeded): Promise<Record<string, pulumi.Input<unknown>>> {
  return { accountId: seeded.accountId };
}
