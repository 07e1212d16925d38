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
import * as builds from "../../../examples/builds";
import * as content from "../../../examples/content";
import * as email from "../../../examples/email";
import * as meetings from "../../../examples/meetings";
import * as registrar from "../../../examples/registrar";
import * as search from "../../../examples/search";

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

/** One of the per-area examples (examples/<area>) with what its seed returned. */
export type ExampleRef =
  | { example: "builds"; seeded: builds.Seeded }
  | { example: "content"; seeded: content.Seeded }
  | { example: "email"; seeded: email.Seeded }
  | { example: "meetings"; seeded: meetings.Seeded }
  | { example: "registrar"; seeded: registrar.Seeded }
  | { example: "search"; seeded: search.Seeded };

export function example(ref: ExampleRef): PulumiFn {
  switch (ref.example) {
    case "builds":
      return () => builds.program(ref.seeded);
    case "content":
      return () => content.program(ref.seeded);
    case "email":
      return () => email.program(ref.seeded);
    case "meetings":
      return () => meetings.program(ref.seeded);
    case "registrar":
      return () => registrar.program(ref.seeded);
    case "search":
      return () => search.program(ref.seeded);
  }
}

/** A program of this module by name, with its JSON arguments: what a child process is told to run. */
export type ProgramRef =
  | { name: "configRules"; args: Parameters<typeof configRules> }
  | { name: "repoConnections"; args: Parameters<typeof repoConnections> }
  | { name: "world"; args: Parameters<typeof world> }
  | { name: "example"; args: Parameters<typeof example> };

export function programOf(ref: ProgramRef): PulumiFn {
  switch (ref.name) {
    case "configRules":
      return configRules(...ref.args);
    case "repoConnections":
      return repoConnections(...ref.args);
    case "world":
      return world(...ref.args);
    case "example":
      return example(...ref.args);
  }
}
