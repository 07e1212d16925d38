/**
 * Go on the native provider: examples/go, an Automation API program (no language host needed) using
 * the generated SDK sdk-gen/go (a `replace` in its go.mod), runs the full sequence of issue 19 on the
 * real engine against the emulator (tests/e2e/native-sequence.ts). It is built as committed
 * (`-mod=readonly`: a go.sum that no longer fits fails here), with the user's Go build cache, so only
 * the first build on a machine is slow.
 */
import { join } from "node:path";
import { REPO_ROOT } from "./harness";
import { commandRunner, nativeSequence } from "./native-sequence";
import { ok, run } from "../helpers/codegen";
import { requireGo } from "../helpers/toolchains";

describe("Go: examples/go through the Automation API on the native provider (real engine)", function () {
  nativeSequence("go", (ctx) => {
    const binary = join(ctx.scratch, "account-api-go-example");
    ok(
      run("go", ["build", "-trimpath", "-mod=readonly", "-buildvcs=false", "-o", binary, "."], {
        cwd: join(REPO_ROOT, "examples", "go"),
        env: requireGo(),
        timeout: 25 * 60_000,
      }),
      "go build of examples/go",
    );
    return commandRunner({ command: binary, args: [] }, ctx);
  });
});
