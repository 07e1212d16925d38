/**
 * Imperative verbs for CI and scripts, on the sdk. The client comes from the sdk's configuration:
 * ACCOUNT_API_BASE_URL, ACCOUNT_API_ACCOUNT_ID, ACCOUNT_API_TOKEN, or --base-url/--account-id; the
 * token is never a flag, so it shows in no process listing or shell history. Every verb prints text
 * (or JSON with --json) on stdout, progress on stderr while it waits, and exits with the codes of
 * io.ts (docs/cli.md).
 */
import { STATUS_CODES } from "node:http";
import { basename } from "node:path";
import type { Command } from "commander";
import { convertHtml } from "../lib/html-markdown/convert";
import { countTokens } from "../lib/html-markdown/tokens";
import {
  AccountApi,
  ConnectionError,
  NotRegistrableError,
  TimeoutError,
  apiErrorItems,
  describeItem,
} from "../sdk";
import type { Build, BuildToken } from "../sdk/schemas/builds";
import { MAX_ORIGIN_BYTES } from "../sdk/schemas/content";
import type { SearchJob } from "../sdk/schemas/search";
import { DomainNameSchema, normalizeDomainName, type DomainAvailability } from "../sdk/schemas/registrar";
import { validate } from "../sdk/validate";
import { EMAIL_MAX_BYTES, type Attachment } from "../sdk/email";
import { terminalText } from "../sdk/terminal-text";
import {
  CliError,
  EXIT,
  UsageError,
  action,
  collect,
  leaf,
  lookingFor,
  positiveInt,
  progressFor,
  readFileArg,
  statFileArg,
  withClient,
  type FileLimit,
  type CommonOptions,
  type Outcome,
  type Progress,
  type VerbIo,
} from "./io";

const THIRTY_MINUTES = 30 * 60_000;

// ---- builds ---------------------------------------------------------------------------------------

function buildLine(b: Build): string {
  const branch = b.build_trigger_metadata?.branch ?? b.branch;
  const commit = b.build_trigger_metadata?.commit_hash;
  const at = [branch && `branch ${branch}`, commit && `commit ${commit}`].filter(Boolean).join(", ");
  return `build ${b.build_uuid}: ${b.status}${b.build_outcome ? ` (${b.build_outcome})` : ""}${at ? `; ${at}` : ""}\n`;
}

/** A stopped build that did not succeed is exit 3; one still running (no --wait) is fine. */
function buildOutcome(b: Build): Outcome<Build> {
  const failed = b.status === "stopped" && b.build_outcome !== "success";
  return { result: b, text: buildLine(b), exitCode: failed ? EXIT.unsuccessful : EXIT.ok };
}

function waitBuild(api: AccountApi, uuid: string, deadlineMs: number, progress: Progress): Promise<Build> {
  progress(`waiting for build ${uuid} (at most ${Math.round(deadlineMs / 1000)} s)…`);
  return lookingFor(
    `build ${uuid}`,
    api.builds.waitForBuild(uuid, {
      deadlineMs,
      onProgress: (b) => progress(`build ${b.build_uuid}: ${b.status}`),
    }),
  );
}

function tokensText(tokens: readonly BuildToken[]): string {
  if (!tokens.length) return "no build tokens (create one in the dashboard)\n";
  return tokens.map((t) => `${t.build_token_uuid}  ${t.build_token_name ?? ""}`.trimEnd()).join("\n") + "\n";
}

interface WaitOpts extends CommonOptions {
  wait?: boolean;
  deadline: number;
}

function addBuildVerbs(root: Command, io: VerbIo): void {
  const build = root
    .command("build")
    .description("build service: trigger, wait, logs, cancel, redeploy, purge-cache, tokens");
  const deadline = (c: Command) =>
    c.option("--deadline <ms>", "longest wait in milliseconds", positiveInt, THIRTY_MINUTES);

  deadline(
    leaf(build.command("trigger <triggerUuid>"))
      .description("start a build (rule 1: --branch, --commit, or both)")
      .option("--branch <name>")
      .option("--commit <hash>")
      .option("--wait", "wait until the build stops (exit 3 unless it succeeded)"),
  ).action(
    action(io, (o: WaitOpts & { branch?: string; commit?: string }, triggerUuid: string) => {
      if (!o.branch && !o.commit)
        throw new UsageError("build trigger: pass --branch, --commit, or both (rule 1)");
      return withClient(io, o, async (api) => {
        const started = await lookingFor(
          `trigger ${triggerUuid}`,
          api.builds.triggerBuild(triggerUuid, {
            ...(o.branch ? { branch: o.branch } : {}),
            ...(o.commit ? { commitHash: o.commit } : {}),
          }),
        );
        if (!o.wait) return buildOutcome(started);
        return buildOutcome(await waitBuild(api, started.build_uuid, o.deadline, progressFor(io, o)));
      });
    }),
  );

  deadline(leaf(build.command("wait <buildUuid>")).description("wait until a build stops")).action(
    action(io, (o: WaitOpts, uuid: string) =>
      withClient(io, o, async (api) =>
        buildOutcome(await waitBuild(api, uuid, o.deadline, progressFor(io, o))),
      ),
    ),
  );

  leaf(build.command("logs <buildUuid>").description("every log line of a build so far")).action(
    action(io, (o: CommonOptions, uuid: string) =>
      withClient(io, o, async (api) => {
        const logs = await lookingFor(`build ${uuid}`, api.builds.collectLogs(uuid));
        const text = logs.lines.map((l) => `${l.text}\n`).join("");
        return { result: logs, text: logs.truncated ? `${text}(truncated)\n` : text };
      }),
    ),
  );

  leaf(build.command("cancel <buildUuid>").description("cancel a build that has not stopped")).action(
    action(io, (o: CommonOptions, uuid: string) =>
      withClient(io, o, async (api) => {
        const b = await lookingFor(`build ${uuid}`, api.builds.cancelBuild(uuid));
        return { result: b, text: buildLine(b) };
      }),
    ),
  );

  deadline(
    leaf(build.command("redeploy <scriptName>"))
      .description("rebuild the branch and commit behind the script's active deployment (rule 2)")
      .option("--wait", "wait until the build stops (exit 3 unless it succeeded)"),
  ).action(
    action(io, (o: WaitOpts, scriptName: string) =>
      withClient(io, o, async (api) => {
        const r = await api.builds.redeployActiveDeployment(scriptName);
        const b = o.wait ? await waitBuild(api, r.build.build_uuid, o.deadline, progressFor(io, o)) : r.build;
        const outcome = buildOutcome(b);
        return {
          ...outcome,
          result: { versionId: r.versionId, build: b },
          text: `version ${r.versionId}: ${outcome.text}`,
        };
      }),
    ),
  );

  leaf(build.command("purge-cache <triggerUuid>").description("clear a trigger's build cache")).action(
    action(io, (o: CommonOptions, triggerUuid: string) =>
      withClient(io, o, async (api) => {
        await lookingFor(`trigger ${triggerUuid}`, api.builds.purgeBuildCache(triggerUuid));
        return {
          result: { purged: triggerUuid },
          text: `purged the build cache of trigger ${triggerUuid}\n`,
        };
      }),
    ),
  );

  leaf(build.command("tokens").description("list the account's build tokens")).action(
    action(io, (o: CommonOptions) =>
      withClient(io, o, async (api) => {
        const tokens = await api.builds.listTokens();
        return { result: tokens, text: tokensText(tokens) };
      }),
    ),
  );
}

// ---- search sync jobs -------------------------------------------------------------------------------

interface JobOpts extends WaitOpts {
  namespace?: string;
}

const jobLine = (j: SearchJob): string =>
  `job ${j.id}: ${j.ended_at ? `ended (${j.end_reason ?? "no reason given"})` : "running"}\n`;

/** A job that ended other than by completing is exit 3. */
function jobOutcome(j: SearchJob): Outcome<SearchJob> {
  const failed =
    Boolean(j.ended_at) &&
    j.end_reason !== null &&
    j.end_reason !== undefined &&
    !/^(completed?|success|done)$/i.test(j.end_reason);
  return { result: j, text: jobLine(j), exitCode: failed ? EXIT.unsuccessful : EXIT.ok };
}

/** How a verb names a search instance, with its namespace when one was given. */
const instanceName = (id: string, o: JobOpts): string =>
  `search instance ${id}${o.namespace ? ` (namespace ${o.namespace})` : ""}`;

function waitJob(io: VerbIo, api: AccountApi, id: string, jobId: string, o: JobOpts): Promise<SearchJob> {
  const progress = progressFor(io, o);
  progress(`waiting for job ${jobId} of ${id}…`);
  return lookingFor(
    `job ${jobId} of ${instanceName(id, o)}`,
    api.search.waitForJob(id, jobId, {
      ...(o.namespace ? { namespace: o.namespace } : {}),
      deadlineMs: o.deadline,
      onProgress: (p) => progress(`job ${p.job.id}: running (${Math.round(p.elapsedMs / 1000)} s)`),
    }),
  );
}

function addJobVerbs(root: Command, io: VerbIo): void {
  const job = root.command("job").description("search instances: sync jobs (run, wait, logs)");
  const shared = (c: Command) =>
    leaf(c).option("--namespace <name>", "the instance's namespace (default: the default one)");

  shared(job.command("run <instanceId>"))
    .description("start a sync job (a running one is reused after a lost answer)")
    .option("--wait", "wait until the job ends (exit 3 unless it completed)")
    .option("--deadline <ms>", "longest wait in milliseconds", positiveInt, THIRTY_MINUTES)
    .action(
      action(io, (o: JobOpts, id: string) =>
        withClient(io, o, async (api) => {
          const started = await lookingFor(
            instanceName(id, o),
            api.search.createJob({ id, ...(o.namespace ? { namespace: o.namespace } : {}) }),
          );
          return jobOutcome(o.wait ? await waitJob(io, api, id, started.id, o) : started);
        }),
      ),
    );

  shared(job.command("wait <instanceId> <jobId>"))
    .description("wait until a sync job ends")
    .option("--deadline <ms>", "longest wait in milliseconds", positiveInt, THIRTY_MINUTES)
    .action(
      action(io, (o: JobOpts, id: string, jobId: string) =>
        withClient(io, o, async (api) => jobOutcome(await waitJob(io, api, id, jobId, o))),
      ),
    );

  shared(job.command("logs <instanceId> <jobId>"))
    .description("a sync job's log lines, oldest first")
    .action(
      action(io, (o: JobOpts, id: string, jobId: string) =>
        withClient(io, o, async (api) => {
          const lines = await lookingFor(
            `job ${jobId} of ${instanceName(id, o)}`,
            api.search
              .listJobLogs({ id, jobId, ...(o.namespace ? { namespace: o.namespace } : {}) })
              .toArray(),
          );
          return { result: lines, text: lines.map((l) => `${l.created_at}  ${l.message}\n`).join("") };
        }),
      ),
    );
}

// ---- registrar ----------------------------------------------------------------------------------------

function availabilityText(domains: readonly DomainAvailability[], none = "no domains"): string {
  if (!domains.length) return `${none}\n`;
  return domains
    .map((d) => {
      if (!d.registrable) return `${d.name}: not registrable (${d.reason ?? "no reason given"})\n`;
      const p = d.pricing;
      return `${d.name}: registrable${d.tier ? `, ${d.tier}` : ""}${p ? `, ${p.registration_cost} ${p.currency} first year, ${p.renewal_cost} ${p.currency}/year after` : ""}\n`;
    })
    .join("");
}

/**
 * A domain name argument, checked as the sdk checks a registration's (the check endpoint itself takes
 * any string and leaves a malformed one out of its answer, which would read as "no domains").
 */
function domainArg(verb: string, name: string): string {
  return validate(DomainNameSchema, name, `${verb}: ${JSON.stringify(name)}`);
}

function addDomainVerbs(root: Command, io: VerbIo): void {
  const domain = root.command("domain").description("registrar: check, search, quote");
  leaf(domain.command("check <domains...>"))
    .description("authoritative availability and price (exit 3 if any is not registrable)")
    .action(
      action(io, (o: CommonOptions, args: string[]) => {
        const domains = args.map((d) => domainArg("domain check", d));
        return withClient(io, o, async (api) => {
          const r = await api.registrar.check({ domains });
          const answered = new Set(r.domains.map((d) => normalizeDomainName(d.name)));
          const missing = domains.filter((d) => !answered.has(d));
          const all = missing.length === 0 && r.domains.every((d) => d.registrable);
          return {
            result: r,
            text:
              (r.domains.length ? availabilityText(r.domains) : "") +
              missing.map((d) => `${d}: not in the answer (the service said nothing about it)\n`).join(""),
            exitCode: all ? EXIT.ok : EXIT.unsuccessful,
          };
        });
      }),
    );
  leaf(domain.command("search <query>"))
    .description("advisory suggestions (check before registering)")
    .option("--limit <n>", "at most this many", positiveInt)
    .action(
      action(io, (o: CommonOptions & { limit?: number }, q: string) =>
        withClient(io, o, async (api) => {
          const r = await api.registrar.search({ q, ...(o.limit ? { limit: o.limit } : {}) });
          return { result: r, text: availabilityText(r.domains, `no suggestions for ${JSON.stringify(q)}`) };
        }),
      ),
    );
  leaf(domain.command("quote <domain>"))
    .description("the exact price of registering for --years (rule 3), from an authoritative check")
    .option("--years <n>", "1 to 10", positiveInt, 1)
    .action(
      action(io, (o: CommonOptions & { years: number }, arg: string) => {
        const name = domainArg("domain quote", arg);
        return withClient(io, o, async (api) => {
          try {
            const q = await api.registrar.quoteRegistration(name, o.years);
            return {
              result: q,
              text: `${q.domain_name} for ${q.years} year(s): ${q.total} ${q.currency} (${q.registration_cost} first year, ${q.renewal_cost}/year after)\n`,
            };
          } catch (err) {
            if (!(err instanceof NotRegistrableError)) throw err;
            return {
              result: { domain_name: name, registrable: false, reason: err.reason },
              text: `${err.message}\n`,
              exitCode: EXIT.unsuccessful,
            };
          }
        });
      }),
    );
}

// ---- email --------------------------------------------------------------------------------------------

interface SendOpts extends CommonOptions {
  from: string;
  to: string[];
  cc?: string[];
  bcc?: string[];
  subject: string;
  text?: string;
  textFile?: string;
  htmlFile?: string;
  attach?: string[];
  header?: string[];
}

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  pdf: "application/pdf",
  txt: "text/plain",
  csv: "text/csv",
  html: "text/html",
  json: "application/json",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  zip: "application/zip",
};

/** What an email may be as sent, in the words of an argument over it. */
const EMAIL_LIMIT = `the 5 MiB (${EMAIL_MAX_BYTES} bytes) an email may be as sent`;
/** Bytes of a file as base64, which is how an attachment is sent. */
const base64Bytes = (n: number): number => 4 * Math.ceil(n / 3);
/** The largest file whose base64 still fits the limit. */
const ATTACH_LIMIT: FileLimit = {
  bytes: Math.floor(EMAIL_MAX_BYTES / 4) * 3,
  over: `${Math.floor(EMAIL_MAX_BYTES / 4) * 3} bytes, as base64 over ${EMAIL_LIMIT}`,
};
const BODY_LIMIT: FileLimit = { bytes: EMAIL_MAX_BYTES, over: EMAIL_LIMIT };

/**
 * Every file a message would carry, sized with stat before any is read: one that cannot fit, or the
 * one that takes the message past the limit with those before it, is bad input naming it. Nothing
 * is read, however many or large the files, unless together they can be sent. The sdk then checks
 * the exact JSON as sent.
 */
async function checkEmailFiles(o: SendOpts): Promise<void> {
  const files: { argument: string; file: string; limit: FileLimit; sent: (n: number) => number }[] = [
    ...(o.textFile
      ? [{ argument: "--text-file", file: o.textFile, limit: BODY_LIMIT, sent: (n: number) => n }]
      : []),
    ...(o.htmlFile
      ? [{ argument: "--html-file", file: o.htmlFile, limit: BODY_LIMIT, sent: (n: number) => n }]
      : []),
    ...(o.attach ?? []).map((file) => ({
      argument: "--attach",
      file,
      limit: ATTACH_LIMIT,
      sent: base64Bytes,
    })),
  ];
  let total = Buffer.byteLength(o.text ?? "") + Buffer.byteLength(o.subject);
  for (const f of files) {
    const size = await statFileArg(f.argument, f.file);
    if (size > f.limit.bytes)
      throw new UsageError(`${f.argument} ${f.file}: ${size} bytes, over ${f.limit.over}`);
    total += f.sent(size);
    if (total > EMAIL_MAX_BYTES)
      throw new UsageError(
        `${f.argument} ${f.file}: with the message's other parts before it, ${total} bytes as sent, over ${EMAIL_LIMIT}`,
      );
  }
}

async function attachment(file: string): Promise<Attachment> {
  const bytes = await readFileArg("--attach", file, ATTACH_LIMIT);
  const ext = file.split(".").pop()?.toLowerCase() ?? "";
  return {
    content: bytes.toString("base64"),
    filename: basename(file),
    type: MEDIA_TYPES[ext] ?? "application/octet-stream",
    disposition: "attachment",
  };
}

function headers(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((p) => {
      const i = p.indexOf(":");
      if (i <= 0) throw new UsageError(`--header ${JSON.stringify(p)}: must be "Name: value"`);
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
}

function addEmailVerb(root: Command, io: VerbIo): void {
  leaf(root.command("send-email"))
    .description(
      `send one message; prints each recipient's result (exit 3 if any bounced). Checked locally first, the ${EMAIL_MAX_BYTES / 1024 / 1024} MiB limit included: nothing is sent when a check fails (exit 64)`,
    )
    .requiredOption("--from <address>", "sender, on a domain of the account")
    .requiredOption("--to <address>", "recipient (repeat for more)", collect)
    .option("--cc <address>", "copy (repeatable)", collect)
    .option("--bcc <address>", "blind copy (repeatable)", collect)
    .requiredOption("--subject <text>")
    .option("--text <body>", "plain-text body")
    .option("--text-file <file>", "plain-text body from a file")
    .option("--html-file <file>", "HTML body from a file")
    .option("--attach <file>", "attach a file (repeatable)", collect)
    .option("--header <name:value>", "an allowed custom header (repeatable)", collect)
    .action(
      action(io, async (o: SendOpts) => {
        if (o.text !== undefined && o.textFile !== undefined)
          throw new UsageError("--text-file: pass the plain-text body once: --text or --text-file, not both");
        if (o.text === undefined && o.textFile === undefined && o.htmlFile === undefined)
          throw new UsageError("send-email: pass a body: --text, --text-file or --html-file");
        await checkEmailFiles(o);
        const text =
          o.text ??
          (o.textFile
            ? (await readFileArg("--text-file", o.textFile, BODY_LIMIT)).toString("utf8")
            : undefined);
        const html = o.htmlFile
          ? (await readFileArg("--html-file", o.htmlFile, BODY_LIMIT)).toString("utf8")
          : undefined;
        // One at a time: their sizes passed together above, and each read stops at its limit.
        const attachments: Attachment[] = [];
        for (const file of o.attach ?? []) attachments.push(await attachment(file));
        return withClient(io, o, async (api) => {
          progressFor(
            io,
            o,
          )(`sending to ${o.to.length + (o.cc?.length ?? 0) + (o.bcc?.length ?? 0)} recipient(s)…`);
          const r = await api.email.sendEmail({
            from: o.from,
            to: o.to.length === 1 ? o.to[0]! : o.to,
            subject: o.subject,
            ...(o.cc ? { cc: o.cc } : {}),
            ...(o.bcc ? { bcc: o.bcc } : {}),
            ...(text !== undefined ? { text } : {}),
            ...(html !== undefined ? { html } : {}),
            ...(attachments.length ? { attachments } : {}),
            ...(o.header?.length ? { headers: headers(o.header) } : {}),
          });
          const recipients = [
            ...r.delivered.map((address) => ({ address, result: "delivered" as const })),
            ...r.queued.map((address) => ({ address, result: "queued" as const })),
            ...r.permanentBounces.map((address) => ({ address, result: "bounced" as const })),
          ];
          return {
            result: { ...(r.messageId ? { messageId: r.messageId } : {}), recipients },
            text: recipients.map((x) => `${x.address}: ${x.result}\n`).join(""),
            exitCode: r.permanentBounces.length ? EXIT.unsuccessful : EXIT.ok,
          };
        });
      }),
    );
}

// ---- markdown -----------------------------------------------------------------------------------------

export interface MarkdownReport {
  source: string;
  converted: boolean;
  markdown: string;
  markdownTokens: number;
  /** Tokens of the HTML the page (or file) would have cost an agent. */
  htmlTokens: number;
  savedTokens: number;
  /** Share of the HTML's tokens saved, in percent (one decimal). */
  savedPercent: number;
  frontmatter?: Record<string, unknown>;
  contentSignal?: Record<string, string>;
  /** Why a page was not converted: what came back, and what it means. */
  reason?: string;
  /** The page's answer when it was not converted. */
  status?: number;
  contentType?: string;
}

export function savings(
  markdownTokens: number,
  htmlTokens: number,
): { savedTokens: number; savedPercent: number } {
  const savedTokens = htmlTokens - markdownTokens;
  return {
    savedTokens,
    savedPercent: htmlTokens > 0 ? Math.round((savedTokens / htmlTokens) * 1000) / 10 : 0,
  };
}

const isUrl = (s: string): boolean => /^https?:\/\//i.test(s);

const mediaType = (contentType: string | undefined): string =>
  (contentType ?? "").split(";")[0]!.trim().toLowerCase();

/** What the service said in an error envelope the page came back with, if it is one. */
function serviceSaid(contentType: string | undefined, body: string): string {
  if (!mediaType(contentType).endsWith("json")) return "";
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return "";
  }
  const items = apiErrorItems(json);
  return items.length ? `: ${items.map(describeItem).join("; ")}` : "";
}

/**
 * Why a page came back as something other than Markdown, one case each: not found, another error
 * status, a redirect (not followed), not HTML, too large, or HTML with conversion off.
 */
export function notConvertedReason(
  status: number,
  headers: Readonly<Record<string, string>>,
  body: string,
): string {
  const type = headers["content-type"];
  const answered = `the page answered ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ""}`;
  if (status === 404 || status === 410) return `${answered}: there is no such page${serviceSaid(type, body)}`;
  if (status >= 300 && status < 400)
    return `${answered}: a redirect${headers.location ? ` to ${headers.location}` : ""}, not followed; ask for the page it points to`;
  if (status !== 200) return `${answered}: an error, not the page${serviceSaid(type, body)}`;
  const media = mediaType(type);
  if (media !== "text/html" && media !== "application/xhtml+xml")
    return `the page is ${media ? media : "of no content type"}, not HTML: only HTML pages are converted`;
  const bytes = Buffer.byteLength(body);
  if (bytes > MAX_ORIGIN_BYTES)
    return `the page's HTML is ${bytes} bytes, over the ${MAX_ORIGIN_BYTES} bytes conversion takes`;
  return "the page came back as HTML: Markdown conversion is not on for it (turn it on for its zone, or for its path with a rule)";
}

/** A page through the service (what an agent asking for text/markdown gets), or a local HTML file through the same conversion. */
export async function markdownOf(io: VerbIo, o: CommonOptions, source: string): Promise<MarkdownReport> {
  if (!isUrl(source)) {
    const html = (
      await readFileArg(
        "markdown <page-or-file>",
        source,
        // The service converts no larger page; nor is a larger file read.
        { bytes: MAX_ORIGIN_BYTES, over: `the ${MAX_ORIGIN_BYTES} bytes conversion takes` },
        /^(www\.|[\w-]+(\.[\w-]+)+\/)/i.test(source)
          ? " (a page is given by its URL, with http:// or https://)"
          : "",
      )
    ).toString("utf8");
    const c = convertHtml(html);
    const markdownTokens = countTokens(c.markdown);
    const htmlTokens = countTokens(html);
    return {
      source,
      converted: true,
      markdown: c.markdown,
      markdownTokens,
      htmlTokens,
      ...savings(markdownTokens, htmlTokens),
      frontmatter: { ...c.frontmatter },
    };
  }
  // Pages are public: no token is sent, so the client needs none configured.
  const configured = Boolean((o.baseUrl ?? io.env.ACCOUNT_API_BASE_URL) && io.env.ACCOUNT_API_TOKEN);
  const api = configured
    ? new AccountApi({
        ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
        // Only pages are fetched, never with the token: nothing travels to the base URL.
        insecureHttp: true,
        env: io.env,
      })
    : new AccountApi({ baseUrl: "http://127.0.0.1/client/v4", token: "unused-for-pages", env: {} });
  try {
    const r = await api.content.fetchMarkdown(source).catch((err: unknown) => {
      // A connection error names the path only; the user gave the whole URL.
      if (err instanceof ConnectionError || err instanceof TimeoutError)
        throw new CliError(`${source}: could not fetch the page: ${err.message}`, EXIT.error, { cause: err });
      throw err;
    });
    if (!r.converted) {
      const { status, headers, body } = r.response;
      return {
        source,
        converted: false,
        markdown: "",
        markdownTokens: 0,
        htmlTokens: countTokens(body),
        savedTokens: 0,
        savedPercent: 0,
        reason: notConvertedReason(status, headers, body),
        status,
        ...(headers["content-type"] ? { contentType: headers["content-type"] } : {}),
      };
    }
    return {
      source,
      converted: true,
      markdown: r.markdown,
      markdownTokens: r.markdownTokens,
      htmlTokens: r.originalTokens,
      ...savings(r.markdownTokens, r.originalTokens),
      frontmatter: { ...r.frontmatter },
      contentSignal: r.contentSignal,
    };
  } finally {
    await api.close();
  }
}

function addMarkdownVerb(root: Command, io: VerbIo): void {
  leaf(root.command("markdown <page-or-file>"))
    .description(
      "what an agent gets from a page (a URL, asked for text/markdown) or an HTML file: the Markdown on stdout, its token count and the savings against the HTML on stderr (exit 3 if the page was not converted)",
    )
    .action(
      action(io, async (o: CommonOptions, source: string) => {
        const r = await markdownOf(io, o, source);
        if (!o.quiet && !o.json) {
          io.err(
            r.converted
              ? `${r.markdownTokens} tokens as Markdown, ${r.htmlTokens} as HTML: ${r.savedTokens} fewer (${r.savedPercent}% saved)\n`
              : // The reason quotes the page's answer (a redirect's location): shown inert.
                `not converted: ${terminalText(r.reason ?? "")}\n`,
          );
        }
        return {
          result: r,
          text: r.markdown.endsWith("\n") || !r.markdown ? r.markdown : `${r.markdown}\n`,
          exitCode: r.converted ? EXIT.ok : EXIT.unsuccessful,
        };
      }),
    );
}

export function addVerbs(root: Command, io: VerbIo): void {
  root
    .option("--base-url <url>", "API root ending in /client/v4 (default: ACCOUNT_API_BASE_URL)")
    .option("--account-id <id>", "account id (default: ACCOUNT_API_ACCOUNT_ID)")
    .option(
      "--insecure-http",
      "allow a plain http:// base URL to a host other than loopback, the token in clear (default: ACCOUNT_API_INSECURE_HTTP)",
    );
  addBuildVerbs(root, io);
  addJobVerbs(root, io);
  addDomainVerbs(root, io);
  addEmailVerb(root, io);
  addMarkdownVerb(root, io);
}
