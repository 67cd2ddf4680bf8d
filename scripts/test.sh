#!/usr/bin/env bash
# The whole check, exactly as CI runs it: set-up, lint, type-check, tests.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
cd "$ROOT"
pnpm lint
pnpm typecheck
pnpm test
