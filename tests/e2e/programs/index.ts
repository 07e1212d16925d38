/**
 * Programs that the e2e tests run in a process of their own (tests/e2e/isolated.ts): factories
 * named by a ProgramRef, taking JSON arguments, so a child process can build the same program.
 * Values that change between runs of one stack come from the stack's config, as in a user's program.
 */
import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { ConfigRule } from "../../../provider/resources/config-rule";
import { RepoConnection } from "../../../provider/resources/repo-connection";
import { buildProgram, type World } from "../reliability-world";

/** `count` ConfigRules in one zone; each rule's description is the stack config's `round`. */
export function configRules(prefix: string, zoneId: string, domain: string, count: number): PulumiFn {
  return async () => {
    const round = new pulumi.Config().require("round");
    for (let i = 0; i < count; i++)
      new ConfigRule(`${prefix}-${i}`, {
        zoneId,
        host: `${prefix}-${i}.${domain}`,
        description: `round ${round}`,
      });
  };
}

/** `count` repository connections, their repository ids prefixed to keep stacks apart. */
export function repoConnections(prefix: string, count: number): PulumiFn {
  return async () => {
    const uuids: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) {
      const repo = new RepoConnection(`${prefix}-${i}`, {
        providerType: "github",
        providerAccountId: "acme",
        providerAccountName: "Acme",
        repoId: `${prefix}-${i}`,
        repoName: `${prefix}-${i}`,
      });
      uuids[`${prefix}-${i}`] = repo.id;
    }
    return uuids;
  };
}

/** The reliability tests' world: `n` resources of every kind. */
export function world(w: World, n: number): PulumiFn {
  return async () => buildProgram(w, n);
}

/** A program of this module by name, with its JSON arguments: what a child process is told to run. */
export type ProgramRef =
  | { name: "configRules"; args: Parameters<typeof configRules> }
  | { name: "repoConnections"; args: Parameters<typeof repoConnections> }
  | { name: "world"; args: Parameters<typeof world> };

export function programOf(ref: ProgramRef): PulumiFn {
  switch (ref.name) {
    case "configRules":
      return configRules(...ref.args);
    case "repoConnections":
      return repoConnections(...ref.args);
    case "world":
      return world(...ref.args);
  }
}
