#!/usr/bin/env bash
# Set-up, then the demo. Arguments are passed on (e.g. --framework langchain, --chat).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
cd "$ROOT"
exec node apps/demo/dist/main.js "$@"
