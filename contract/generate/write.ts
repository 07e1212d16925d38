/** The generated modules as they are written: the generator's text through the project's prettier settings. */
import { resolve } from "node:path";
import { format, resolveConfig } from "prettier";
import { generateFromProject } from "./index";

export const GENERATED_DIR = resolve(__dirname, "../../sdk/generated");

export async function formatted(files: Map<string, string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [name, text] of files) {
    const path = resolve(GENERATED_DIR, name);
    const options = (await resolveConfig(path)) ?? {};
    out.set(name, await format(text, { ...options, filepath: path }));
  }
  return out;
}

/** What the build writes for the project's own contract and overlay. */
export const formattedFiles = () => formatted(generateFromProject());
