#!/usr/bin/env node
// The version is checked before anything else is imported: on an older Node a dependency
// fails at import with a cryptic error (a RegExp `v` flag, which Node 20 introduced).
const MINIMUM_NODE_MAJOR = 20;
if (Number(process.versions.node.split(".")[0]) < MINIMUM_NODE_MAJOR) {
  process.stderr.write(
    `skillshelf: needs Node.js ${MINIMUM_NODE_MAJOR} or newer; this is ${process.version}\n`,
  );
  process.exit(1);
}

import("./main.js")
  .then(({ main }) => main(process.argv.slice(2)))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`skillshelf: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 2;
    },
  );
