// @ts-check
/**
 * The search page: every namespace's instances (status, source, models), each with its sync jobs
 * (newest first; a job's logs open in a disclosure) and its items (key, status, chunks, size).
 * Read-only: GET /__emulator/search/overview, re-read on every change.
 *
 * Test hooks (data-testid): search-overview (section), search-instance (data-namespace,
 * data-instance), search-jobs (table), search-job-row (data-job), search-job-logs (a job's log
 * list), search-items (table), search-item-row (data-key).
 */
import { overviewPage, row, table, text, time } from "./live-section.js";

export const title = "Search";

/**
 * @typedef {{ id: string, created_at: number, message: string, message_type: number }} JobLog
 * @typedef {{ id: string, source: string, description?: string | null, started_at: string,
 *   ended_at?: string, end_reason?: string, logs: JobLog[] }} Job
 * @typedef {{ key: string, status: string, chunks_count: number | null, file_size: number,
 *   last_seen_at: string, error?: string }} Item
 * @typedef {{ id: string, status: string, type: string | null, source: string | null,
 *   ai_search_model: string | null, embedding_model: string | null, last_activity: string | null }} Instance
 * @typedef {{ name: string, instances: { instance: Instance, jobs: Job[], items: Item[] }[] }} Namespace
 */

/**
 * @param {HTMLElement} view
 * @param {import("./live-section.js").PageContext} ctx
 */
export async function render(view, ctx) {
  const { h } = ctx;
  /** @type {(data: Namespace[]) => (Node | string)[]} */
  const draw = (namespaces) => {
    const sections = namespaces.flatMap((ns) =>
      ns.instances.map(({ instance, jobs, items }) =>
        h(
          "section",
          {
            class: "panel",
            "data-testid": "search-instance",
            "data-namespace": ns.name,
            "data-instance": instance.id,
          },
          h("h2", null, `${instance.id}`, h("span", { class: "muted" }, ` in namespace ${ns.name}`)),
          h(
            "dl",
            { class: "facts" },
            ...fact(h, "Status", instance.status),
            ...fact(h, "Source", `${text(instance.type)} ${text(instance.source)}`),
            ...fact(h, "Models", `${text(instance.ai_search_model)} / ${text(instance.embedding_model)}`),
            ...fact(h, "Last activity", time(h, instance.last_activity)),
          ),
          h("h3", null, "Jobs"),
          table(
            h,
            "search-jobs",
            `Sync jobs of ${instance.id}, newest first`,
            ["Job", "Source", "Started", "Ended", "Logs"],
            jobs.map((j) =>
              row(
                h,
                { "data-testid": "search-job-row", "data-job": j.id },
                j.description ? `${j.id} (${j.description})` : j.id,
                j.source,
                time(h, j.started_at),
                j.ended_at ? h("span", null, time(h, j.ended_at), ` ${text(j.end_reason)}`) : "running",
                logs(h, j),
              ),
            ),
            "No jobs yet.",
          ),
          h("h3", null, "Items"),
          table(
            h,
            "search-items",
            `Items of ${instance.id}`,
            ["Key", "Status", "Chunks", "Size (bytes)", "Last seen"],
            items.map((i) =>
              row(
                h,
                { "data-testid": "search-item-row", "data-key": i.key },
                i.key,
                i.error ? `${i.status}: ${i.error}` : i.status,
                text(i.chunks_count),
                String(i.file_size),
                time(h, i.last_seen_at),
              ),
            ),
            "No items yet.",
          ),
        ),
      ),
    );
    return sections.length ? sections : [h("p", { class: "empty" }, "No search instances yet.")];
  };
  await overviewPage(view, ctx, { title, testid: "search-overview", path: "/search/overview", draw });
}

/** @param {import("./live-section.js").H} h @param {string} term @param {Node | string} value */
function fact(h, term, value) {
  return [h("dt", null, term), h("dd", null, value)];
}

/** A job's logs in a disclosure (closed: a long sync has many lines). */
/** @param {import("./live-section.js").H} h @param {Job} job */
function logs(h, job) {
  if (job.logs.length === 0) return h("span", { class: "muted" }, "none");
  return h(
    "details",
    null,
    h("summary", null, `${job.logs.length} lines`),
    h(
      "ol",
      { class: "log", "data-testid": "search-job-logs" },
      ...job.logs.map((l) =>
        h("li", null, h("time", null, new Date(l.created_at * 1000).toISOString()), ` ${l.message}`),
      ),
    ),
  );
}
