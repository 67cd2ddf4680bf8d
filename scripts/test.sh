#!/usr/bin/env bash
# The whole check, exactly as CI runs it: set-up, lint, type-check, tests.
# Tests that read the shared data (../shared/data, or $SKILLSHELF_SHARED/data) skip when it
# is missing; under CI=true a missing folder fails them instead.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
cd "$ROOT"

# @skillshelf/postgres tests start a throwaway PostgreSQL server from the machine's binaries;
# a fresh Debian machine has none, so Debian's package is installed (as root) when missing.
# Without it those tests skip with one line, except under CI=true, where they fail.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "[test] installing PostgreSQL (apt-get install postgresql) for @skillshelf/postgres" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } >&2 ||
      echo "[test] could not install PostgreSQL; the @skillshelf/postgres tests will say so" >&2
  fi
fi
# The studio's browser tests (@skillshelf/cli) drive Debian's Chromium (never a downloaded
# browser); installed the same way when missing, and the same rule when it cannot be.
if ! [ -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "[test] installing Chromium and a CJK font (apt-get) for the studio's browser tests" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-droid-fallback; } >&2 ||
      echo "[test] could not install Chromium; the studio's browser tests will say so" >&2
  fi
fi
pnpm lint
pnpm typecheck

LOG="$(mktemp)"
trap 'rm -f "$LOG"' EXIT
# --continue: a failing package must not hide the others' results from the closing line.
status=0
pnpm exec turbo run test --continue 2>&1 | tee "$LOG" || status=$?

# Every README's ts snippets compile, strict, against the packed packages, and a CommonJS
# consumer is refused by tsc (ESM only) before it could crash at run time.
node scripts/check-snippets.ts || status=$?
# Under CI: each adapter's type-check and tests at the lowest and the latest framework
# versions its peer ranges allow (a throwaway copy; the lockfile is never touched).
if [[ ! "${CI:-}" =~ ^(|0|false)$ ]]; then bash scripts/version-lanes.sh || status=$?; fi
# Under CI: the tests again as a clone without ../shared beside it runs them (they must pass,
# the ones that need the data skipping).
if [[ ! "${CI:-}" =~ ^(|0|false)$ ]]; then bash scripts/no-shared-lane.sh || status=$?; fi

# One closing line over every package's vitest summary (turbo replays cached ones too):
# "Tests  2 failed | 810 passed | 97 skipped (909)". A file that fails before its tests run
# (a suite-level error) counts no test there, so its "Failed Suites N" count is added.
# (awk alone: a grep that matches nothing would end the script under pipefail.)
PLAIN="$(sed 's/\x1b\[[0-9;]*m//g' "$LOG")"
count() { # count <line pattern> <word>: the sum of "<n> <word>" over the matching lines
  awk -v line="$1" -v word="$2" '$0 ~ line { for (i = 2; i <= NF; i++) if ($i ~ "^" word) s += $(i - 1) } END { print s + 0 }' <<<"$PLAIN"
}
passed=$(count '^[^ ]+:test: +Tests +' passed)
skipped=$(count '^[^ ]+:test: +Tests +' skipped)
failed=$(( $(count '^[^ ]+:test: +Tests +' failed) + $(awk '/^[^ ]+:test: .*Failed Suites [0-9]+/ { for (i = 1; i <= NF; i++) if ($i == "Suites") s += $(i + 1) } END { print s + 0 }' <<<"$PLAIN") ))
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi # a package failed without a vitest summary

if [ "$skipped" -gt 0 ]; then
  # The lookup rule lives in one place: test-utils' shared-data module (built by setup).
  notice=$(node --input-type=module -e "const m = await import('$ROOT/packages/test-utils/dist/shared-data.js'); if (!m.hasSharedData) console.log(m.SHARED_DATA_NOTICE);" 2>/dev/null || true)
  if [ -n "$notice" ]; then echo "skipped: ${notice}"; fi
fi
echo "${passed} passed, ${failed} failed, ${skipped} skipped"
exit "$status"
