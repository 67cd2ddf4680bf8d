#!/usr/bin/env bash
# Set-up, then the demo. Arguments are passed on (e.g. --framework langchain, --chat).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
cd "$ROOT"
if [ -f apps/demo/dist/main.js ]; then
  exec node apps/demo/dist/main.js "$@"
fi
# Until the demo app lands: the CLI lists the example skills as a shelf resolves them
# (examples/skills as the project folder, over your user folders and the builtin roles),
# then validates them with the specification's rules.
node packages/cli/dist/bin.js list --project examples/skills
node packages/cli/dist/bin.js validate examples/skills --strict
