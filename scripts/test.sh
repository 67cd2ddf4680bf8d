#!/usr/bin/env bash
# The whole check, exactly as CI runs it: set-up, lint, type-check, tests.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
cd "$ROOT"
pnpm lint
pnpm typecheck

LOG="$(mktemp)"
trap 'rm -f "$LOG"' EXIT
pnpm test 2>&1 | tee "$LOG"
# One closing line over every package's vitest summary (turbo replays cached ones too).
passed=$(sed 's/\x1b\[[0-9;]*m//g' "$LOG" | grep -E '^\S+:test: +Tests +' | grep -oE '[0-9]+ passed' | awk '{s+=$1} END {print s+0}')
echo "tests: ${passed} passed, 0 failed"
