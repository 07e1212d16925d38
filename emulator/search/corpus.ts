/**
 * What the emulator's synthetic sources hold. A source has no real files, so item k of a source is
 * paragraph (k − 1) mod 10 of this fixed corpus under a title line naming its key: deterministic,
 * documented (docs/areas/search.md), and varied enough for searches to rank something.
 */
export const CORPUS: readonly string[] = [
  "Installation. Install the package with npm and Node 22 or later. The installer adds the command line tool, the client library and the emulator. Run npm install once per project; a lock file keeps every machine on the same version.",
  "Configuration. The client reads its API token, its account id and its base URL from the environment or from the program's configuration. A token is a secret: store it in a secret manager, never in the repository.",
  "Billing. Every account has a plan, and each plan bills usage monthly. An invoice lists the requests, the storage and the indexing of the month; payment is due on receipt. Upgrading the plan takes effect at once.",
  "Deployment. A deployment publishes a new version to production. Preview deployments run for every branch; a production deployment only for the main branch. A rollback deploys the previous version again within seconds.",
  "Security. Secrets are encrypted at rest and in transit. Rotate credentials regularly: issue the new key, deploy it, then revoke the old one. Access tokens carry only the permissions they need, and every change is audited.",
  "Search. An index splits each document into chunks, embeds them and stores them for retrieval. A query is matched against the chunks; the best chunks are ranked by score and returned with the document they came from.",
  "Caching. A cache keeps answers to repeated questions so they return quickly. Each entry lives for its time to live; a purge empties the cache at once, and the next question is answered afresh from the index.",
  "Monitoring. Logs, metrics and alerts show how the service behaves. A dashboard charts requests and errors per minute; an alert fires when the error rate stays above its threshold for five minutes.",
  "Networking. Domains point at the service through DNS records. Certificates for every hostname are issued and renewed automatically; a custom domain needs a verified zone before its certificate can be issued.",
  "Troubleshooting. When a request fails, read the error code and message first. Timeouts and throttling are temporary: retry with backoff. A validation error names the field and the rule; fix the request before sending it again.",
];

/** The text of item `k` (1-based) of a synthetic source, whose key is `key`. */
export function sourceItemText(key: string, k: number): string {
  return `# ${key}\n\n${CORPUS[(k - 1) % CORPUS.length]}\n`;
}
