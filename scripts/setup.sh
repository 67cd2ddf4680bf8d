#!/usr/bin/env bash
# Brings everything the repo needs onto a machine that has only Node 20 and npm:
# Node 24 and pnpm (pinned, from the npm registry, into the git-ignored .tools/),
# the workspace's dependencies (frozen lockfile) and the built packages.
# Safe to source repeatedly: each step is skipped when nothing it depends on changed.
set -euo pipefail

NODE_VERSION=24.21.0
PNPM_VERSION=10.34.9

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
export PATH="$TOOLS/node_modules/.bin:$PATH"

say() { printf '\033[2m[setup]\033[0m %s\n' "$*" >&2; }

# 1. Node and pnpm. We do not trust whatever node is on PATH: the pinned one is used
#    even when the machine has a newer one, so every run sees the same runtime.
#    (corepack cannot download here; the npm `node` package ships the real binary.)
if [ "$("$TOOLS/node_modules/.bin/node" --version 2>/dev/null)" != "v$NODE_VERSION" ] ||
   [ "$("$TOOLS/node_modules/.bin/pnpm" --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  say "installing node@$NODE_VERSION and pnpm@$PNPM_VERSION into .tools/"
  mkdir -p "$TOOLS"
  [ -f "$TOOLS/package.json" ] || echo '{"private":true}' > "$TOOLS/package.json"
  npm install --prefix "$TOOLS" --no-fund --no-audit --loglevel=error \
    "node@$NODE_VERSION" "pnpm@$PNPM_VERSION" >&2
fi

# 2. Dependencies, only when the lockfile, the workspace or a manifest changed since the last install.
sha256() { if command -v sha256sum >/dev/null; then sha256sum; else shasum -a 256; fi; }
STAMP="$ROOT/node_modules/.skillshelf-install-stamp"
FINGERPRINT="$(cat "$ROOT/pnpm-lock.yaml" "$ROOT/pnpm-workspace.yaml" "$ROOT"/package.json "$ROOT"/packages/*/package.json "$ROOT"/apps/*/package.json "$ROOT"/bench/package.json 2>/dev/null | sha256 | cut -d' ' -f1)"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$FINGERPRINT" ]; then
  say "pnpm install --frozen-lockfile"
  (cd "$ROOT" && pnpm install --frozen-lockfile --reporter=append-only >&2)
  echo "$FINGERPRINT" > "$STAMP"
fi

# 3. Build (turbo caches it: a second run with no source change is a cache hit).
say "building packages"
(cd "$ROOT" && pnpm exec turbo run build --output-logs=errors-only >&2)
