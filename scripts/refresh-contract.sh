#!/usr/bin/env bash
# Replaces contract/openapi/ with the four files of a newer contract and prints what changed.
# The copies are never edited by hand: a refresh is this file replacement and a diff to review.
#   bash scripts/refresh-contract.sh ../shared/spec/openapi
set -euo pipefail
src="${1:?usage: refresh-contract.sh <folder holding public-subset.json, public-families.json, README.md, FAMILIES.md>}"
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/contract/openapi"
files=(public-subset.json public-families.json README.md FAMILIES.md)
for f in "${files[@]}"; do
  [ -f "$src/$f" ] || { echo "refresh-contract: $src/$f is missing; nothing copied" >&2; exit 1; }
done
for f in "${files[@]}"; do
  cp "$src/$f" "$dest/$f"
  chmod 644 "$dest/$f"
done
cd "$root"
echo "contract/openapi/ refreshed from $src"
git --no-pager diff --stat -- contract/openapi
for f in public-subset.json public-families.json; do
  node -e 'const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(`${process.argv[2]}: ${c.operations.length} operations`);' "$dest/$f" "$f"
done
