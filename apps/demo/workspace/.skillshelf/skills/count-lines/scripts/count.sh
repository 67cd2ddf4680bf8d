#!/bin/sh
# Counts the lines of every file in one folder of the project (default: src).
# Read-only and offline: it only runs wc on the files it finds.
set -eu
folder="${1:-src}"
case "$folder" in
  /* | *..*) echo "count.sh: give a folder inside the project, not $folder" >&2; exit 2 ;;
esac
# The skill folder is <project>/.skillshelf/skills/count-lines; the project is three levels up.
project="$(cd "$(dirname "$0")/../../../.." && pwd)"
cd "$project"
if [ ! -d "$folder" ]; then echo "count.sh: no folder $folder" >&2; exit 1; fi
find "$folder" -type f ! -name '.*' -exec wc -l {} + | sort -k2
