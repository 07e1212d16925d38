#!/usr/bin/env bash
# Builds tools/codegen (the SDK generator: Pulumi schema -> Python, Go and .NET SDKs) once per user
# and reuses it. The build is cached under ~/.cache/pulumi-account-api/codegen/<key>/codegen
# ($XDG_CACHE_HOME is honoured), shared by every clone on the machine. The key names the generator
# versions pinned in tools/codegen/go.mod and hashes the tool's sources and the Go version, so a new
# pin or an edit of main.go builds a new binary and never reuses a stale one.
# Prints the binary's path as the last line of stdout; progress and times go to stderr.
#   bash scripts/build-codegen.sh            # build or reuse, print the path
#   bash scripts/build-codegen.sh --print-path   # print the path it would use, build nothing
set -euo pipefail
started=$(date +%s%N)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src="$root/tools/codegen"
say() { printf '[codegen-build] %s\n' "$*" >&2; }
fail() { printf '[codegen-build] ERROR: %s\n' "$*" >&2; exit 1; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

[ -f "$src/go.mod" ] && [ -f "$src/go.sum" ] && [ -f "$src/main.go" ] || fail "tools/codegen is incomplete in $root (go.mod, go.sum and main.go are needed)."

# The versions that decide what the generators write; they name the cache folder.
pin() { awk -v m="$1" '$1 == m { print $2; exit } $2 == m && $1 != "module" { print $3; exit }' "$src/go.mod"; }
pkg_version=$(pin github.com/pulumi/pulumi/pkg/v3)
sdk_version=$(pin github.com/pulumi/pulumi/sdk/v3)
dotnet_version=$(pin github.com/pulumi/pulumi-dotnet/pulumi-language-dotnet/v3)
[ -n "$pkg_version" ] && [ -n "$sdk_version" ] || fail "tools/codegen/go.mod must require github.com/pulumi/pulumi/pkg/v3 and sdk/v3."
[ "$pkg_version" = "$sdk_version" ] || fail "tools/codegen/go.mod pins pkg/v3 $pkg_version but sdk/v3 $sdk_version: they must be one version."

go_version=none
command -v go >/dev/null && go_version=$(go env GOVERSION)
hash=$( { cat "$src/go.mod" "$src/go.sum" "$src"/*.go; echo "$go_version"; } | sha256sum | cut -c1-12)
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-account-api/codegen"
dir="$cache_root/pkg-$pkg_version-dotnet-${dotnet_version:-none}-$hash"
bin="$dir/codegen"

if [ "${1:-}" = "--print-path" ]; then echo "$bin"; exit 0; fi

if [ -x "$bin" ]; then
  say "reusing $bin ($(ms "$started") ms)"
  echo "$bin"
  exit 0
fi

command -v go >/dev/null || fail "Go is not installed; it is needed once to build tools/codegen (pkg/v3 $pkg_version). Install Go 1.25+ and run this again."
mkdir -p "$dir"
# One build at a time per key: a second caller waits for the first and then reuses its binary.
exec 9>"$dir/.lock"
if ! flock -n 9; then
  say "another build of $bin is under way: waiting for it"
  flock 9
fi
if [ -x "$bin" ]; then
  say "reusing $bin, built meanwhile by another run ($(ms "$started") ms)"
  echo "$bin"
  exit 0
fi

say "building tools/codegen (pkg/v3 $pkg_version, pulumi-language-dotnet ${dotnet_version:-absent}, $go_version) into $dir"
say "first run only: seconds with a warm Go build cache (measured 3 s), about 6.5 minutes on 2 busy cores without one (measured 388 s)"
# Build from a copy so a read-only checkout works and GOFLAGS=-mod=mod never rewrites the checkout's
# go.mod or go.sum.
work=$(mktemp -d)
trap 'rm -rf "$work"; rm -f "$bin.tmp.$$"' EXIT
cp "$src/go.mod" "$src/go.sum" "$src"/*.go "$work/"
step=$(date +%s%N)
( cd "$work" && GOFLAGS=-mod=mod go mod download >/dev/null 2>"$work/download.log" ) \
  || { cat "$work/download.log" >&2; fail "downloading the modules of tools/codegen failed: is the Go module proxy ($(go env GOPROXY)) reachable?"; }
say "modules ready ($(ms "$step") ms)"
step=$(date +%s%N)
( cd "$work" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags "-s -w" -o "$bin.tmp.$$" . ) \
  || fail "go build of tools/codegen failed (see above)."
mv "$bin.tmp.$$" "$bin"
say "built $bin ($(du -h "$bin" | cut -f1), go build $(ms "$step") ms, total $(ms "$started") ms)"
echo "$bin"
