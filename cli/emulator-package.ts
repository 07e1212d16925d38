/**
 * The emulator is its own package (`pulumi-account-api-emulator`, a workspace of this repository): a
 * program that only declares resources must not install a web server, an HTML parser and a tokenizer.
 * The CLI loads it when it is installed beside this one, and otherwise says the one command that adds it.
 *
 * Run from this checkout's sources (ts-node), the emulator's sources are loaded instead of its built
 * copy, so that one copy of each module (and of each error class) is in the process.
 */
import type { Command } from "commander";
import { z } from "zod";
import { CliError, EXIT, setExit, type VerbIo } from "./io";

export const EMULATOR_PACKAGE = "pulumi-account-api-emulator";
export const INSTALL_EMULATOR = `npm install --save-dev ${EMULATOR_PACKAGE}`;

/** The emulator package is not installed where this one is. */
export class EmulatorNotInstalledError extends CliError {
  constructor(what: string) {
    super(
      `${what} is in the ${EMULATOR_PACKAGE} package, which is not installed here; add it with: ${INSTALL_EMULATOR}`,
      EXIT.usage,
    );
  }
}

const fromSources = __filename.endsWith(".ts");

/** The package's module `subpath` (`verb`, `markdown`), or undefined when the package is not installed. */
function load(subpath: "verb" | "markdown"): unknown {
  const id = fromSources
    ? `../emulator/${subpath === "markdown" ? "markdown/local" : subpath}`
    : `${EMULATOR_PACKAGE}/${subpath}`;
  try {
    // A computed id: the provider's build must not follow it into the emulator.
    return require(id) as unknown;
  } catch (err) {
    const missing =
      err instanceof Error &&
      "code" in err &&
      err.code === "MODULE_NOT_FOUND" &&
      err.message.includes(`'${id}'`);
    if (missing) return undefined;
    throw err;
  }
}

const VerbModule = z.object({
  addEmulatorVerb: z.custom<(program: Command, io: VerbIo) => void>((f) => typeof f === "function"),
});

const LocalConversion = z.object({
  markdown: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  markdownTokens: z.number(),
  htmlTokens: z.number(),
});
export type LocalConversion = z.infer<typeof LocalConversion>;

const MarkdownModule = z.object({
  convertLocalHtml: z.custom<(html: string) => unknown>((f) => typeof f === "function"),
});

/**
 * Adds `emulator`: the package's own verb when it is installed; else a command that takes any
 * arguments and says how to install it (so `account-api emulator --port 0` says that too, not
 * "unknown option").
 */
export function addEmulatorVerb(program: Command, io: VerbIo): void {
  const loaded = load("verb");
  if (loaded !== undefined) return VerbModule.parse(loaded).addEmulatorVerb(program, io);
  program
    .command("emulator")
    .description(
      `run the local, stateful emulator of the whole API (needs ${EMULATOR_PACKAGE}: ${INSTALL_EMULATOR})`,
    )
    .allowUnknownOption()
    .allowExcessArguments()
    .helpOption(false)
    .action(() => {
      io.err(`error: ${new EmulatorNotInstalledError("the emulator").message}\n`);
      setExit(io, EXIT.usage);
    });
}

/** An HTML file converted here, as the emulator's edge converts a page, with its token counts. */
export function convertLocalHtml(html: string): LocalConversion {
  const loaded = load("markdown");
  if (loaded === undefined)
    throw new EmulatorNotInstalledError("converting a local HTML file (a page's URL needs nothing more)");
  return LocalConversion.parse(MarkdownModule.parse(loaded).convertLocalHtml(html));
}
