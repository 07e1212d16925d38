/** The registrar's verbs: check, search, quote. */
import type { Command } from "commander";
import { NotRegistrableError } from "../../sdk";
import { DomainNameSchema, normalizeDomainName, type DomainAvailability } from "../../sdk/schemas/registrar";
import { validate } from "../../sdk/validate";
import { EXIT, action, leaf, positiveInt, withClient, type CommonOptions, type VerbIo } from "../io";

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

export function addDomainVerbs(root: Command, io: VerbIo): void {
  const domain = root.command("domain").description("registrar: check, search, quote");
  leaf(domain.command("check <domains...>"))
    .description("authoritative availability and price (exit 3 if any is not registrable)")
    .action(
      action(io, (o: CommonOptions, args: string[]) => {
        const domains = args.map((d) => domainArg("domain check", d));
        return withClient(io, o, async (api) => {
          const r = await api.registrar.discovery.check({}, { domains });
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
          const r = await api.registrar.discovery.search({}, { q, ...(o.limit ? { limit: o.limit } : {}) });
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
            const q = await api.registrar.registrations.quote({ domainName: name }, { years: o.years });
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
