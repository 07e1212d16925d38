/**
 * Python on the native provider: examples/python/main.py, an Automation API program (no language
 * host needed) using the generated SDK sdk-gen/python, runs the full sequence of issue 19 on the real
 * engine against the emulator (tests/e2e/native-sequence.ts). The venv with pulumi from PyPI is made
 * once per user; the SDK is installed into a folder of this run, so it is always the committed one.
 */
import { join } from "node:path";
import { REPO_ROOT } from "./harness";
import { commandRunner, nativeSequence } from "./native-sequence";
import { installPythonSdk } from "../helpers/codegen";
import { requirePython } from "../helpers/toolchains";

describe("Python: examples/python through the Automation API on the native provider (real engine)", function () {
  nativeSequence("python", (ctx) => {
    const python = requirePython();
    const site = join(ctx.scratch, "site-packages");
    // Bytecode goes to a folder of its own, so the generated tree stays as generated.
    const env = { PYTHONPATH: site, PYTHONPYCACHEPREFIX: join(ctx.scratch, "pycache") };
    installPythonSdk(python, join(REPO_ROOT, "sdk-gen", "python"), site, { ...process.env, ...env });
    return commandRunner(
      { command: python, args: [join(REPO_ROOT, "examples", "python", "main.py")], env },
      ctx,
    );
  });
});
