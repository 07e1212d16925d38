#!/usr/bin/env bash
# Makes this checkout resolvable as `pulumi-account-api` from its own node_modules, the way a user's
# project resolves the installed package. The serialized dynamic provider `require`s
# "pulumi-account-api/provider/runtime" at run time, and the engine's provider process resolves it from
# node_modules (Node's self-reference does not apply to code loaded from a string).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
link="$root/node_modules/pulumi-account-api"
if [ "$(readlink "$link" 2>/dev/null)" != ".." ]; then
  rm -rf "$link"
  ln -s .. "$link"
  echo "[setup] linked node_modules/pulumi-account-api -> the checkout"
fi
