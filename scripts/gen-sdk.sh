#!/usr/bin/env bash
# Regenerates the SDKs sdk-gen/{python,go,dotnet} from a Pulumi package schema, or checks that the
# committed ones are what the schema generates. Needs Go once (to build tools/codegen, cached per
# user by scripts/build-codegen.sh); needs neither npm nor the pulumi CLI.
#   bash scripts/gen-sdk.sh [--schema FILE] [--out DIR] [--lang python|go|dotnet|all] [--check]
# Defaults: --out sdk-gen, --schema OUT/schema.json (the schema the SDKs come from: every run that
# writes keeps a copy there), --lang all. With --check nothing is written: it exits 1 naming every
# file that is stale, missing or extra. The contract of the schema's metadata is docs/sdk-gen.md.
set -euo pipefail
started=$(date +%s%N)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
say() { printf '[gen-sdk] %s\n' "$*" >&2; }
fail() { printf '[gen-sdk] ERROR: %s\n' "$*" >&2; exit 2; }

schema=""
out="$root/sdk-gen"
lang=all
check=()
while [ $# -gt 0 ]; do
  case "$1" in
    --schema) schema=${2:?--schema needs a file}; shift 2 ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --lang) lang=${2:?--lang needs python, go, dotnet or all}; shift 2 ;;
    --check) check=(--check); shift ;;
    -h | --help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) fail "unknown argument $1 (see --help)" ;;
  esac
done
schema=${schema:-$out/schema.json}
[ -f "$schema" ] || fail "no schema at $schema: pass --schema FILE (the JSON \`pulumi package get-schema\` prints for the provider)."

bin=$(bash "$root/scripts/build-codegen.sh" | tail -n1) || fail "could not build tools/codegen (see above)."
step=$(date +%s%N)
set +e
"$bin" --schema "$schema" --out "$out" --lang "$lang" "${check[@]}"
rc=$?
set -e
# The schema travels with the SDKs (OUT/schema.json), so a later --check without --schema checks
# them against the schema they were made from.
kept="$out/schema.json"
if [ $rc -eq 0 ] && [ ${#check[@]} -eq 0 ] && [ "$(readlink -f "$schema")" != "$(readlink -f "$kept" 2>/dev/null || true)" ]; then
  cp "$schema" "$kept.tmp" && mv "$kept.tmp" "$kept"
  say "kept the schema as $kept"
elif [ ${#check[@]} -gt 0 ] && [ -f "$kept" ] && ! cmp -s "$schema" "$kept"; then
  echo "stale:   $kept"
  [ $rc -ne 0 ] || rc=1
fi
if [ ${#check[@]} -gt 0 ] && [ $rc -eq 1 ]; then
  say "the SDKs in $out are stale for $schema: run  bash scripts/gen-sdk.sh --schema $schema --out $out  and commit the result"
elif [ $rc -ne 0 ]; then
  fail "codegen failed (exit $rc, see above)."
fi
say "generation $(( ($(date +%s%N) - step) / 1000000 )) ms, total $(( ($(date +%s%N) - started) / 1000000 )) ms"
exit $rc
