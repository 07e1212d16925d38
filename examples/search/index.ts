/**
 * Search: a knowledge base over an R2 bucket in a team's own namespace. The bucket credentials come
 * from stack config (the secret key stays a Pulumi secret and is compared through a hash, since the
 * API never returns it); on every `up` a sync job is started (or the running one reused) and waited
 * for, so the stack's outputs say how the index was last refreshed. Destroy deletes the instance.
 *
 * Run: `npx mocha tests/e2e/examples.test.ts` (after `npm run build`) runs it against the emulator.
 * In your own Pulumi project: import from `pulumi-account-api/provider` instead of `../../provider`,
 * `pulumi config set r2AccessKeyId …`, `pulumi config set --secret r2SecretAccessKey …`, then
 * `pulumi up`. Namespaces have no public create operation: on the real account make it in the
 * dashboard; `seed` makes it through the emulator's control API.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RunningEmulator } from "../../emulator/server";
import { SearchInstance, triggerSyncJob } from "../../provider";
import type { AccountApi } from "../../sdk";

export interface Seeded {
  namespace: string;
}

/** Makes the namespace unless it exists (idempotent). */
export async function seed(
  _api: AccountApi,
  em: Pick<RunningEmulator, "origin" | "accountId">,
): Promise<Seeded> {
  const namespace = "docs-team";
  const base = `${em.origin}/__emulator/search/namespaces`;
  const list = await fetch(`${base}?account_id=${em.accountId}`);
  if (!list.ok) throw new Error(`seed: listing namespaces failed with ${list.status}`);
  const { result } = (await list.json()) as { result: { name: string }[] };
  if (!result.some((ns) => ns.name === namespace)) {
    const res = await fetch(base, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: namespace, account_id: em.accountId }),
    });
    if (!res.ok) throw new Error(`seed: creating namespace ${namespace} failed with ${res.status}`);
  }
  return { namespace };
}

export async function program(seeded: Seeded): Promise<Record<string, unknown>> {
  const config = new pulumi.Config();
  const accessKeyId = config.require("r2AccessKeyId");
  // The args type the credentials as one input, so the secret is lifted around the whole object
  // (which also keeps the key id secret; the resource makes it secret anyway).
  const storageCredentials = config
    .requireSecret("r2SecretAccessKey")
    .apply((secretAccessKey) => ({ accessKeyId, secretAccessKey }));

  const handbook = new SearchInstance("handbook", {
    namespace: seeded.namespace,
    instanceId: "handbook",
    type: "r2",
    source: "acme-handbook",
    sourceParams: { prefix: "handbook/" },
    storageCredentials,
    chunkSize: 512,
    syncInterval: 3600,
  });

  // The instance's outputs as inputs: the job starts once the instance exists, in its namespace.
  const sync = triggerSyncJob({
    instanceId: handbook.instanceId,
    namespace: handbook.namespace,
    wait: true,
    deadlineMs: 600_000,
  });

  return {
    instance: handbook.id,
    credentialsHash: handbook.storageCredentialsHash,
    syncJobId: sync.apply((j) => j?.id),
    syncEndReason: sync.apply((j) => j?.endReason),
  };
}
