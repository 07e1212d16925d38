#!/usr/bin/env bash
# Builds tools/yaml-roundtrip (loads Pulumi YAML programs with pulumi-yaml's own loader and prints what
# they hold; tests/unit/writers-roundtrip.test.ts checks every written string with it) once per user
# and reuses it. Cached under ~/.cache/pulumi-account-api/yaml-roundtrip/<key>/yaml-roundtrip
# ($XDG_CACHE_HOME is honoured); the key names the pinned pulumi-yaml and hashes the tool's sources and
# the Go version, so an edit or a new pin builds a new binary. Same flags and tags as the YAML
# language host's build (provision-yaml.sh), so the packages both share come from the Go build cache.
# Prints the binary's path as the last line of stdout; progress goes to stderr.
set -euo pipefail
started=$(date +%s%N)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src="$root/tools/yaml-roundtrip"
say() { printf '[yaml-roundtrip-build] %s\n' "$*" >&2; }
fail() { printf '[yaml-roundtrip-build] ERROR: %s\n' "$*" >&2; exit 1; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

[ -f "$src/go.mod" ] && [ -f "$src/go.sum" ] && [ -f "$src/main.go" ] || fail "tools/yaml-roundtrip is incomplete in $root (go.mod, go.sum and main.go are needed)."
yaml_version=$(awk '$1 == "github.com/pulumi/pulumi-yaml" { print $2; exit }' "$src/go.mod")
[ -n "$yaml_version" ] || fail "tools/yaml-roundtrip/go.mod must require github.com/pulumi/pulumi-yaml."

command -v go >/dev/null || fail "Go is not installed; it is needed once to build tools/yaml-roundtrip (pulumi-yaml $yaml_version). Install Go 1.25+ and run this again."
hash=$( { cat "$src/go.mod" "$src/go.sum" "$src"/*.go; go env GOVERSION; } | sha256sum | cut -c1-12)
dir="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-account-api/yaml-roundtrip/$yaml_version-$hash"
bin="$dir/yaml-roundtrip"

if [ -x "$bin" ]; then
  say "reusing $bin ($(ms "$started") ms)"
  echo "$bin"
  exit 0
fi
mkdir -p "$dir"
# One build at a time per key: a second caller waits for the first and then reuses its binary.
exec 9>"$dir/.lock"
flock -n 9 || { say "another build of $bin is under way: waiting for it"; flock 9; }
if [ ! -x "$bin" ]; then
  say "building tools/yaml-roundtrip (pulumi-yaml $yaml_version) into $dir (first run only)"
  # From a copy, so a read-only checkout works and -mod=mod never rewrites its go.mod or go.sum.
  work=$(mktemp -d)
  trap 'rm -rf "$work"; rm -f "$bin.tmp.$$"' EXIT
  cp "$src/go.mod" "$src/go.sum" "$src"/*.go "$work/"
  ( cd "$work" && GOFLAGS=-mod=mod go mod download >/dev/null 2>"$work/download.log" ) \
    || { cat "$work/download.log" >&2; fail "downloading the modules of tools/yaml-roundtrip failed: is the Go module proxy ($(go env GOPROXY)) reachable?"; }
  ( cd "$work" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -tags osusergo,grpcnotrace -ldflags "-s -w" -o "$bin.tmp.$$" . ) \
    || fail "go build of tools/yaml-roundtrip failed (see above)."
  mv "$bin.tmp.$$" "$bin"
  say "built $bin ($(ms "$started") ms)"
fi
echo "$bin"
