#!/usr/bin/env bash
# Makes a `pulumi` CLI of the same version as the pinned @pulumi/pulumi available to this checkout.
# Idempotent: reuses a matching `pulumi` on PATH, else a per-user cached build, else builds the CLI
# from its Go module (the npm `pulumi` package is only a downloader, and nothing can be downloaded here).
# Result: .engine/bin/pulumi in the checkout, with the dynamic-provider plugin and the Node language
# host beside the real binary; tests and `npm start` put .engine/bin first on PATH.
set -euo pipefail
started=$(date +%s%N)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
say() { printf '[engine] %s\n' "$*" >&2; }
fail() { printf '[engine] ERROR: %s\n' "$*" >&2; printf '[engine] With the official CLI installed (https://www.pulumi.com/docs/install/), put a `pulumi` of version %s on PATH and this step reuses it without building.\n' "${version:-<pinned>}" >&2; exit 1; }

# The Node that runs npm scripts must be >= 22 (current @pulumi/pulumi refuses older).
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
[ "$node_major" -ge 22 ] || fail "Node >= 22 is needed, found $(node --version 2>/dev/null || echo none). Run through npm (npm start / npm test), which uses the node@24 devDependency, or install Node 22+."

sdk_pkg="$root/node_modules/@pulumi/pulumi/package.json"
[ -f "$sdk_pkg" ] || fail "@pulumi/pulumi is not installed in $root/node_modules: run npm ci first."
version=$(node -p "require('$sdk_pkg').version")
plugin="$root/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
[ -x "$plugin" ] || plugin=$(find "$root/node_modules/@pulumi/pulumi" -name pulumi-resource-pulumi-nodejs -type f | head -n1)
[ -n "$plugin" ] && [ -f "$plugin" ] || fail "the dynamic-provider plugin pulumi-resource-pulumi-nodejs is missing from @pulumi/pulumi $version."
chmod +x "$plugin" 2>/dev/null || true

cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-account-api/engine"
cached="$cache_root/v$version/pulumi"
bindir="$root/.engine/bin"
mkdir -p "$bindir"

cli_version() { "$1" version 2>/dev/null | tr -d 'v\r\n' || true; }

chosen=""
# 1. A matching pulumi already on PATH (but not our own link, which we are about to refresh).
if onpath=$(PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -vx "$bindir" | paste -sd:) command -v pulumi 2>/dev/null); then
  found=$(cli_version "$onpath")
  if [ "$found" = "$version" ]; then chosen="$onpath"; say "reusing pulumi $found on PATH: $onpath";
  else say "pulumi on PATH ($onpath) is version '${found:-unknown}', not $version: not used"; fi
fi
# 2. The per-user cache.
if [ -z "$chosen" ] && [ -x "$cached" ] && [ "$(cli_version "$cached")" = "$version" ]; then
  chosen="$cached"; say "reusing cached build $cached"
fi
# Two provisionings at once (parallel test runs, a user's second checkout) must not build twice or
# rename each other's half-written binary: the build holds a per-user lock, and whoever waited on it
# reuses what the holder built.
if [ -z "$chosen" ]; then
  mkdir -p "$(dirname "$cached")"
  exec 9>"$(dirname "$cached")/.build.lock"
  flock 9
  if [ -x "$cached" ] && [ "$(cli_version "$cached")" = "$version" ]; then
    chosen="$cached"; say "reusing $cached, built by a provisioning that ran at the same time"
  fi
fi
# 3. Build from the Go module inside a wrapper module: pkg/v3's go.mod replaces sdk/v3 with ../sdk,
#    which only resolves inside Pulumi's own repository, so we require pkg and sdk at one version and
#    repeat their non-local replaces.
if [ -z "$chosen" ]; then
  command -v go >/dev/null || fail "Go is not installed; it is needed to build the pulumi CLI $version from its Go module."
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  say "no pulumi $version on PATH or in $cache_root: building it from github.com/pulumi/pulumi/pkg/v3 (first run only; about 5 to 12 minutes on 2 cores)"
  proxy=$(go env GOPROXY | cut -d, -f1)
  modfile=$(curl -fsS "$proxy/github.com/pulumi/pulumi/pkg/v3/@v/v$version.mod" 2>&1) \
    || fail "the Go module proxy ($proxy) cannot serve github.com/pulumi/pulumi/pkg/v3@v$version: $modfile"
  sdkmod=$(curl -fsS "$proxy/github.com/pulumi/pulumi/sdk/v3/@v/v$version.mod" 2>&1) \
    || fail "the Go module proxy ($proxy) cannot serve github.com/pulumi/pulumi/sdk/v3@v$version: $sdkmod"
  {
    echo "module pulumi-engine-wrapper"
    echo
    echo "go $(go env GOVERSION | sed 's/^go//')"
    echo
    echo "require ("
    echo "  github.com/pulumi/pulumi/pkg/v3 v$version"
    echo "  github.com/pulumi/pulumi/sdk/v3 v$version"
    echo ")"
    # Non-local replaces of both modules (a local one points into Pulumi's repository).
    printf '%s\n%s\n' "$modfile" "$sdkmod" | grep -E '^replace ' | grep -v '=> \.' | sort -u
  } > "$work/go.mod"
  printf 'package main\n\nimport _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"\n' > "$work/tools.go"
  say "wrapper go.mod:"; sed 's/^/[engine]   /' "$work/go.mod" >&2
  ( cd "$work" && GOFLAGS=-mod=mod go mod tidy >/dev/null 2>"$work/tidy.log" ) || { cat "$work/tidy.log" >&2; fail "go mod tidy failed for the wrapper module (is the Go module proxy reachable?)"; }
  mkdir -p "$(dirname "$cached")"
  ( cd "$work" && CGO_ENABLED=0 go build -trimpath -tags osusergo,grpcnotrace \
      -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version" \
      -o "$cached.tmp.$$" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi ) || fail "go build of the pulumi CLI $version failed (see above)."
  mv "$cached.tmp.$$" "$cached"
  chosen="$cached"
fi

ln -sfn "$chosen" "$bindir/pulumi"
# The CLI finds plugins next to its own (resolved) binary without a warning, and on PATH with one.
# The plugin is a generic script that resolves @pulumi/pulumi from the program's directory, so one
# copy beside a cached build serves every checkout; an official CLI already carries its own.
enginedir=$(dirname "$(readlink -f "$chosen")")
rm -f "$bindir/pulumi-resource-pulumi-nodejs"
if [ ! -x "$enginedir/pulumi-resource-pulumi-nodejs" ]; then
  if [ "$enginedir" = "$(dirname "$cached")" ]; then
    cp "$plugin" "$enginedir/pulumi-resource-pulumi-nodejs.tmp.$$" && chmod +x "$enginedir/pulumi-resource-pulumi-nodejs.tmp.$$"
    mv "$enginedir/pulumi-resource-pulumi-nodejs.tmp.$$" "$enginedir/pulumi-resource-pulumi-nodejs"
  else
    ln -sfn "$plugin" "$bindir/pulumi-resource-pulumi-nodejs"
  fi
fi
# The Node language host, which a plain `pulumi up` in a `runtime: nodejs` project starts (inline
# Automation API programs do not need it). An official CLI carries its own beside it; else reuse one on
# PATH, else build the upstream source kept in the shared folder (../shared beside the checkout, also in
# CI) once per user, and link it beside the CLI's resolved binary, where the CLI finds it.
rm -f "$bindir/pulumi-language-nodejs"
if [ -x "$enginedir/pulumi-language-nodejs" ]; then
  say "language host: $enginedir/pulumi-language-nodejs (beside the CLI)"
else
  host=""
  host_cache="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-language-nodejs/v$version/pulumi-language-nodejs"
  if onpath=$(PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -vx "$bindir" | paste -sd:) command -v pulumi-language-nodejs 2>/dev/null); then
    host="$onpath"; say "language host: reusing $host on PATH"
  elif [ -x "$host_cache" ]; then
    # A build of an earlier setup (any clone): its source is not needed again.
    host="$host_cache"; say "language host: reusing cached build $host"
  else
    build_sh=""
    for candidate in ${PULUMI_LANGUAGE_NODEJS_SRC:+"$PULUMI_LANGUAGE_NODEJS_SRC"} "$root/../shared/third_party/pulumi-language-nodejs" "$root/../../shared/third_party/pulumi-language-nodejs"; do
      if [ -f "$candidate/build.sh" ]; then build_sh="$candidate/build.sh"; break; fi
    done
    [ -n "$build_sh" ] || fail "the Node language host pulumi-language-nodejs (needed by \`pulumi up\` in a project directory) is not beside the CLI, not on PATH, not cached in $host_cache, and its source is not in $root/../shared/third_party/pulumi-language-nodejs (set PULUMI_LANGUAGE_NODEJS_SRC to the folder holding its build.sh; building it takes about 4 minutes on 2 cores)."
    host_dir=$(bash "$build_sh" --print-dir)
    [ -x "$host_dir/pulumi-language-nodejs" ] || say "language host: building from $build_sh (first run only; about 4 minutes on 2 cores)"
    host_started=$(date +%s)
    host_dir=$(bash "$build_sh" | tail -n1) || fail "building the Node language host with $build_sh failed (see above)."
    host="$host_dir/pulumi-language-nodejs"
    [ -x "$host" ] || fail "$build_sh did not produce $host."
    say "language host: $host ($(( $(date +%s) - host_started )) s)"
  fi
  host_version=$(printf '%s' "$host" | grep -oE 'v[0-9]+\.[0-9]+\.[0-9]+' | tail -n1 | tr -d v || true)
  [ -z "$host_version" ] || [ "$host_version" = "$version" ] \
    || say "WARNING: language host $host_version differs from the CLI $version; build.sh pins its own version"
  if [ -w "$enginedir" ]; then ln -sfn "$host" "$enginedir/pulumi-language-nodejs"; else ln -sfn "$host" "$bindir/pulumi-language-nodejs"; fi
fi
say "pulumi version: $("$bindir/pulumi" version) (linked in $bindir; dynamic-provider plugin beside $enginedir/pulumi or in $bindir)"
say "took $(( ($(date +%s%N) - started) / 1000000 )) ms"
