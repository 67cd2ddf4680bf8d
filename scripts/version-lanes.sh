#!/usr/bin/env bash
# Makes each adapter's peerDependencies a tested claim: for every adapter, the lowest and
# the latest versions its declared ranges allow are installed in a throwaway copy of the
# workspace (core, test-utils and that adapter only), and the adapter's type-check and tests
# (its conformance suite among them) run against each. The repo's lockfile and node_modules
# are never touched: the copy gets its own, with every peer pinned as the adapter's dependency.
#
#   scripts/version-lanes.sh                          every adapter, floor and latest
#   scripts/version-lanes.sh langchain                one adapter, floor and latest
#   scripts/version-lanes.sh langchain langchain=1.3.1 @langchain/core=1.1.38
#                                                     one adapter at exact versions (the
#                                                     other peers at their floor), e.g. to
#                                                     find where a floor really is
#
# Peers that a lane does not name explicitly take the floor (or the latest) of their own
# declared range, so a floor lane also proves the floors work together.
# VERSION_LANES_KEEP=1 keeps the copies (their paths are printed) to look into a failure;
# VERSION_LANES_REV=<commit> copies that commit instead of the working tree.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/.tools/node_modules/.bin:$PATH"
ADAPTERS=(langchain ai-sdk mastra)

# Copies still on disk when the script ends (also on Ctrl-C), unless VERSION_LANES_KEEP=1.
COPIES=()
cleanup() { if [ "${VERSION_LANES_KEEP:-}" != 1 ] && [ "${#COPIES[@]}" -gt 0 ]; then rm -rf "${COPIES[@]}"; fi; }
trap cleanup EXIT

say() { printf '\033[2m[version-lanes]\033[0m %s\n' "$*" >&2; }

# The copy sits outside the repo, so the shared test data must be named: the tests that read
# it resolve <repo>/../shared by default (and fail under CI when it is missing).
export SKILLSHELF_SHARED="${SKILLSHELF_SHARED:-$ROOT/../shared}"

# resolve <adapter> <floor|latest> [pkg=version ...]: prints "pkg=version" for every peer.
resolve_peers() {
  node --input-type=module - "$ROOT" "$@" <<'EOF'
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const [root, adapter, end, ...pinned] = process.argv.slice(2);
const semver = createRequire(`${root}/packages/core/package.json`)("semver");
const manifest = JSON.parse(readFileSync(`${root}/packages/${adapter}/package.json`, "utf8"));
const explicit = new Map(pinned.map((p) => [p.slice(0, p.lastIndexOf("=")), p.slice(p.lastIndexOf("=") + 1)]));
for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
  let version = explicit.get(name);
  if (!version) {
    const published = JSON.parse(execFileSync("pnpm", ["view", name, "versions", "--json"], { encoding: "utf8" }));
    const stable = published.filter((v) => !semver.prerelease(v));
    version = end === "floor" ? semver.minSatisfying(stable, range) : semver.maxSatisfying(stable, range);
    if (!version) throw new Error(`${adapter}: no published ${name} satisfies ${range}`);
  } else if (!semver.satisfies(version, range)) {
    console.error(`note: ${name}@${version} is outside the declared range ${range}`);
  }
  explicit.delete(name);
  console.log(`${name}=${version}`);
}
for (const [name, version] of explicit) console.log(`${name}=${version}`);
EOF
}

# lane <adapter> <label> <pkg=version ...>: copy, pin, install, type-check, test.
lane() {
  local adapter="$1" label="$2"
  shift 2
  local dir
  dir="$(mktemp -d "${TMPDIR:-/tmp}/skillshelf-lane-${adapter}-XXXXXX")"
  COPIES+=("$dir")
  local sources=(package.json tsconfig.base.json packages/core packages/test-utils "packages/$adapter")
  if [ -n "${VERSION_LANES_REV:-}" ]; then
    git -C "$ROOT" archive "$VERSION_LANES_REV" "${sources[@]}" | tar -C "$dir" -xf -
  else
    # Sources only: no node_modules, dist or turbo caches from the repo.
    tar -C "$ROOT" --exclude=node_modules --exclude=dist --exclude=.turbo -cf - "${sources[@]}" |
      tar -C "$dir" -xf -
  fi
  node --input-type=module - "$dir" "$adapter" "$@" <<'EOF'
import { readFileSync, writeFileSync } from "node:fs";
const [dir, adapter, ...pins] = process.argv.slice(2);
const read = (file) => JSON.parse(readFileSync(file, "utf8"));
const root = read(`${dir}/package.json`);
// Only what a package's type-check and tests need (no turbo, biome, changesets).
const keep = ["typescript", "vitest", "@types/node"];
root.devDependencies = Object.fromEntries(Object.entries(root.devDependencies).filter(([name]) => keep.includes(name)));
delete root.scripts;
writeFileSync(`${dir}/package.json`, JSON.stringify(root, null, 2));
// The peers are pinned where a user's app has them: as the adapter's own (dev) dependencies.
// Not as overrides: core keeps its own dependencies (its zod among them) at their versions.
const file = `${dir}/packages/${adapter}/package.json`;
const manifest = read(file);
for (const pin of pins) {
  const at = pin.lastIndexOf("=");
  manifest.devDependencies[pin.slice(0, at)] = pin.slice(at + 1);
}
writeFileSync(file, JSON.stringify(manifest, null, 2));
writeFileSync(`${dir}/pnpm-workspace.yaml`, 'packages:\n  - "packages/*"\n');
EOF
  say "$adapter $label: $* (in $dir)"
  local status=0
  # strict-peer-dependencies off: a floor lane is allowed to be the very combination a
  # framework's own metadata is unsure about; the tests decide.
  if (cd "$dir" && pnpm install --prefer-offline --no-frozen-lockfile \
    --config.strict-peer-dependencies=false --reporter=silent >/dev/null); then
    # The published code against the framework's types (what a user's tsc sees); the tests'
    # own types are left out, since dev-only companions (a provider, a chat model) are pinned
    # for the latest framework and may not type against an old one.
    printf '%s\n' '{ "extends": "./tsconfig.json", "include": ["src"],' \
      '  "exclude": ["src/**/*.test.ts", "src/**/test-utils/**"] }' >"$dir/packages/$adapter/tsconfig.lane.json"
    (cd "$dir/packages/$adapter" && pnpm exec tsc -p tsconfig.lane.json) || status=1
    (cd "$dir/packages/$adapter" && pnpm exec vitest run --reporter=dot --silent=passed-only) || status=1
  else
    status=1
  fi
  if [ "${VERSION_LANES_KEEP:-}" = 1 ]; then say "kept $dir"; else rm -rf "$dir"; fi
  if [ "$status" -eq 0 ]; then
    say "PASS $adapter $label ($*)"
  else
    say "FAIL $adapter $label ($*)"
  fi
  return "$status"
}

failures=()
run_adapter() {
  local adapter="$1"
  shift
  local peers
  if [ "$#" -gt 0 ]; then
    mapfile -t peers < <(resolve_peers "$adapter" floor "$@")
    lane "$adapter" pinned "${peers[@]}" || failures+=("$adapter pinned")
    return
  fi
  for end in floor latest; do
    mapfile -t peers < <(resolve_peers "$adapter" "$end")
    lane "$adapter" "$end" "${peers[@]}" || failures+=("$adapter $end")
  done
}

if [ "$#" -gt 0 ]; then
  run_adapter "$@"
else
  for adapter in "${ADAPTERS[@]}"; do run_adapter "$adapter"; done
fi

if [ "${#failures[@]}" -gt 0 ]; then
  say "failed lanes: ${failures[*]}"
  exit 1
fi
say "every lane passed"
