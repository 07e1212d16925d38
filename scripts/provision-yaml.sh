#!/usr/bin/env bash
# Makes the YAML language host `pulumi-language-yaml` available to the engine of this checkout, so that
# `pulumi up` in a `runtime: yaml` project works. Run it after scripts/provision-engine.sh (it links the
# host beside the CLI that script chose). Idempotent: reuses a host of the pinned version found beside
# the CLI or on PATH, else a per-user cached build, else builds it once from the Go module
# github.com/pulumi/pulumi-yaml (nothing can be downloaded here but Go modules).
# Result: pulumi-language-yaml beside the CLI's resolved binary when that folder is writable, else in
# .engine/bin (which tests and `npm start` put first on PATH).
set -euo pipefail
started=$(date +%s%N)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The host release to provide. 1.38.1 is the newest the Go module proxy serves that builds against the
# engine below; the proxy's @latest is stale, so the version is always asked for explicitly.
yaml_version="${PULUMI_YAML_VERSION:-1.38.1}"
say() { printf '[yaml] %s\n' "$*" >&2; }
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
fail() {
  printf '[yaml] ERROR: %s\n' "$*" >&2
  printf '[yaml] Alternatively put a pulumi-language-yaml of version %s on PATH (it ships with the official Pulumi CLI, https://www.pulumi.com/docs/install/) and this step reuses it without building.\n' "$yaml_version" >&2
  exit 1
}

command -v node >/dev/null || fail "node is not on PATH; run through npm or put node_modules/.bin first on PATH."
sdk_pkg="$root/node_modules/@pulumi/pulumi/package.json"
[ -f "$sdk_pkg" ] || fail "@pulumi/pulumi is not installed in $root/node_modules: run npm ci first."
# The engine's version: the host is built against the same pkg/sdk so that both speak the same protocol.
version=$(node -p "require('$sdk_pkg').version")
bindir="$root/.engine/bin"
[ -e "$bindir/pulumi" ] || fail "$bindir/pulumi is missing: run bash scripts/provision-engine.sh first."
enginedir=$(dirname "$(readlink -f "$bindir/pulumi")")

cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-account-api/language-yaml/v$yaml_version-pulumi$version"
cached="$cache_dir/pulumi-language-yaml"

# The host has no --version flag: the engine learns its version over gRPC (GetPluginInfo). Ask it the
# same way, with the gRPC client and protobuf stubs that ship in @pulumi/pulumi, so that any binary
# (an official one, ours) is judged by what it reports. Prints the version without a leading v, or
# nothing when the binary does not answer.
host_version() {
  [ -x "$1" ] || return 0
  node - "$1" "$root/node_modules/@pulumi/pulumi" 2>/dev/null <<'JS' || true
const [bin, sdk] = process.argv.slice(2);
const { spawn } = require("node:child_process");
const req = (m) => require(require.resolve(m, { paths: [sdk] }));
const grpc = req("@grpc/grpc-js");
const services = require(`${sdk}/proto/language_grpc_pb.js`);
const { Empty } = req("google-protobuf/google/protobuf/empty_pb.js");
const child = spawn(bin, [], { stdio: ["ignore", "pipe", "ignore"] });
const done = (v) => { if (v) process.stdout.write(String(v).replace(/^v/, "")); child.kill(); process.exit(0); };
setTimeout(() => done(""), 10000).unref();
child.on("error", () => done(""));
let out = "";
child.stdout.on("data", (d) => {
  out += d;
  const m = /^(\d+)\n/.exec(out);
  if (!m) return;
  const client = new services.LanguageRuntimeClient(`127.0.0.1:${m[1]}`, grpc.credentials.createInsecure());
  client.getPluginInfo(new Empty(), (err, info) => done(err ? "" : info.getVersion()));
});
JS
}

# The CLI starts a language host found beside its own resolved binary, else on PATH.
beside="$enginedir/pulumi-language-yaml"
chosen=""
step=$(date +%s%N)
# 1. A host beside the CLI (an official CLI ships one; an earlier run links ours there).
if [ -e "$beside" ]; then
  found=$(host_version "$beside")
  if [ "$found" = "$yaml_version" ]; then chosen="$beside"; say "reusing pulumi-language-yaml $found beside the CLI: $beside ($(ms_since "$step") ms)";
  else say "pulumi-language-yaml beside the CLI ($beside) reports version '${found:-unknown}', not $yaml_version: not used"; fi
fi
# 2. One on PATH (not our own link in .engine/bin, which is about to be refreshed).
if [ -z "$chosen" ] && onpath=$(PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -vx "$bindir" | paste -sd:) command -v pulumi-language-yaml 2>/dev/null); then
  found=$(host_version "$onpath")
  if [ "$found" = "$yaml_version" ]; then chosen="$onpath"; say "reusing pulumi-language-yaml $found on PATH: $onpath ($(ms_since "$step") ms)";
  else say "pulumi-language-yaml on PATH ($onpath) reports version '${found:-unknown}', not $yaml_version: not used"; fi
fi

# An official CLI's own host of another release still runs YAML programs: without Go to build the
# pinned one, keep it rather than fail the whole setup.
if [ -z "$chosen" ] && [ -e "$beside" ] && [ ! -x "$cached" ] && ! command -v go >/dev/null; then
  say "WARNING: no Go to build pulumi-language-yaml $yaml_version; the CLI's own host beside it is used: $beside"
  exit 0
fi

# 3. The per-user cache, else 4. a build, under a lock: two setups at once (two clones, parallel CI
#    steps) must not build the same thing twice on 2 cores. The second waits, then finds the cache.
if [ -z "$chosen" ]; then
  mkdir -p "$cache_dir"
  exec 9>"$cache_dir.lock"
  # Without flock (not on every system) a parallel build is only wasted work: the rename below keeps
  # the cache consistent.
  if command -v flock >/dev/null && ! flock -n 9; then
    say "another setup is building pulumi-language-yaml $yaml_version: waiting for it"
    flock 9
  fi
  if [ -x "$cached" ]; then
    chosen="$cached"; say "reusing cached build $cached ($(ms_since "$step") ms)"
  else
    command -v go >/dev/null || fail "Go is not installed; it is needed to build pulumi-language-yaml $yaml_version from its Go module."
    say "no pulumi-language-yaml $yaml_version beside the CLI, on PATH or in $cache_dir: building it from github.com/pulumi/pulumi-yaml v$yaml_version against pulumi $version (first run only; about 30 s on 2 cores right after the CLI was built with the same Go build cache, about 3.5 minutes without it)"
    work=$(mktemp -d)
    trap 'rm -rf "$work"; rm -f "$cached.tmp"' EXIT
    proxy=$(go env GOPROXY | cut -d, -f1)
    mods=""
    for m in "github.com/pulumi/pulumi-yaml/@v/v$yaml_version" "github.com/pulumi/pulumi/pkg/v3/@v/v$version" "github.com/pulumi/pulumi/sdk/v3/@v/v$version"; do
      mod=$(curl -fsS "$proxy/$m.mod" 2>&1) || fail "the Go module proxy ($proxy) cannot serve $m.mod: $mod"
      mods+="$mod"$'\n'
    done
    # A wrapper module: pkg/v3's go.mod replaces sdk/v3 with ../sdk, which only resolves inside
    # Pulumi's repository, so the host cannot be built with `go install module@version`. The wrapper
    # requires pkg and sdk at the engine's version (above the host's own minimum, so Go's version
    # selection keeps them) and repeats the non-local replaces of all three modules.
    {
      echo "module pulumi-language-yaml-wrapper"
      echo
      echo "go $(go env GOVERSION | sed 's/^go//')"
      echo
      echo "require ("
      echo "  github.com/pulumi/pulumi-yaml v$yaml_version"
      echo "  github.com/pulumi/pulumi/pkg/v3 v$version"
      echo "  github.com/pulumi/pulumi/sdk/v3 v$version"
      echo ")"
      printf '%s' "$mods" | grep -E '^replace ' | grep -v '=> \.' | sort -u
    } > "$work/go.mod"
    printf 'package main\n\nimport _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"\n' > "$work/tools.go"
    say "wrapper go.mod:"; sed 's/^/[yaml]   /' "$work/go.mod" >&2
    step=$(date +%s%N)
    ( cd "$work" && GOFLAGS=-mod=mod go mod tidy >/dev/null 2>"$work/tidy.log" ) \
      || { cat "$work/tidy.log" >&2; fail "go mod tidy failed for the wrapper module (is the Go module proxy reachable?)"; }
    say "resolved the wrapper's modules ($(ms_since "$step") ms)"
    step=$(date +%s%N)
    # As the release is built: static, no paths of this machine, the version stamped (without it the
    # host reports an empty version to the engine). The same tags as the engine's build in
    # provision-engine.sh, so the packages both share (pkg, sdk, grpc) come from the Go build cache.
    ( cd "$work" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -tags osusergo,grpcnotrace \
        -ldflags "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$yaml_version" \
        -o "$cached.tmp" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml ) \
      || fail "go build of pulumi-language-yaml $yaml_version failed (see above)."
    # Rename last, so a reader never sees a half-written binary.
    mv "$cached.tmp" "$cached"
    say "built $cached ($(( $(stat -c %s "$cached") / 1048576 )) MiB, $(ms_since "$step") ms)"
    chosen="$cached"
  fi
  exec 9>&-
  found=$(host_version "$chosen")
  [ "$found" = "$yaml_version" ] || fail "$chosen reports version '${found:-nothing}', not $yaml_version: delete $cache_dir and run this again."
fi

# Link it where the CLI finds it: beside its resolved binary (no PATH needed, and one link serves every
# checkout using a cached CLI), else in .engine/bin, which is first on PATH in tests and the main job.
rm -f "$bindir/pulumi-language-yaml"
if [ "$chosen" = "$beside" ]; then
  where="$beside"
elif [ -w "$enginedir" ] && { [ ! -e "$beside" ] || [ -L "$beside" ]; }; then
  # Through a temporary name and a rename, so that a `pulumi up` of another checkout never misses it.
  ln -sfn "$chosen" "$beside.$$" && mv -Tf "$beside.$$" "$beside"; where="$beside"
else
  # Not writable, or a host of another version that we did not put there (an official CLI's): keep it
  # and rely on PATH. A host beside the CLI wins over PATH, so say so.
  ln -sfn "$chosen" "$bindir/pulumi-language-yaml"; where="$bindir/pulumi-language-yaml"
  [ ! -e "$beside" ] || say "WARNING: the CLI prefers $beside (another version) over $where on PATH"
fi
say "pulumi-language-yaml $yaml_version: $where -> $(readlink -f "$where")"
say "took $(ms_since "$started") ms"
