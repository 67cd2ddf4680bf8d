#!/usr/bin/env bash
# Under CI: every package's tests once more as a clone without ../shared runs them (CI unset,
# SKILLSHELF_SHARED at an empty folder). The tests that read the shared data must skip, and
# everything else must pass — README's promise for a plain clone, checked on every run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
EMPTY="$(mktemp -d)"
LOG="$(mktemp)"
trap 'rm -rf "$EMPTY" "$LOG"' EXIT

status=0
# turbo keys test results by CI and SKILLSHELF_SHARED (turbo.json), so nothing is replayed
# from the run with the data.
env -u CI SKILLSHELF_SHARED="$EMPTY" pnpm exec turbo run test --continue >"$LOG" 2>&1 || status=$?
PLAIN="$(sed 's/\x1b\[[0-9;]*m//g' "$LOG")"
sum() { awk -v word="$1" '/^[^ ]+:test: +Tests +/ { for (i = 2; i <= NF; i++) if ($i ~ "^" word) s += $(i - 1) } END { print s + 0 }' <<<"$PLAIN"; }
passed=$(sum passed)
skipped=$(sum skipped)
failed=$(sum failed)
echo "[no-shared lane] ${passed} passed, ${failed} failed, ${skipped} skipped (SKILLSHELF_SHARED=<empty folder>, CI unset)"
if [ "$status" -ne 0 ]; then
  grep -E "FAIL|Error" <<<"$PLAIN" | head -40 >&2
  exit "$status"
fi
if [ "$skipped" -eq 0 ]; then
  echo "[no-shared lane] no test skipped without the shared data: the lane did not run what it should" >&2
  exit 1
fi
