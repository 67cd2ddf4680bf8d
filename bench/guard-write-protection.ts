// session.guard() p50 of two (or more) core builds side by side in one process, the builds
// taking turns in 7 rounds: a short shell command, a 60 KB file written with write_file, a
// 16 KB heredoc, a 300 KB one-line minified JSON, 16 KB of options with glued paths; each
// time the write protection reads every argument. The load average before and after. Read the
// ratio, not the figures. BENCH_LONG_RUNS: runs of the two last inputs per round (3).
// Usage: node --experimental-strip-types --no-warnings guard-write-protection.ts <dist/index.js> <dist/index.js> …
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type * as Core from "@skillshelf/core";

const builds = await Promise.all(process.argv.slice(2).map(async (p) => (await import(p)) as typeof Core));
const root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-bench-guard-"));
await mkdir(path.join(root, ".agents", "skills", "notes"), { recursive: true });
await writeFile(
  path.join(root, ".agents", "skills", "notes", "SKILL.md"),
  "---\nname: notes\ndescription: Writes notes.\nallowed-tools: write_file bash\n---\nWrite notes.\n",
);
const inputs: Array<[string, string, unknown, number]> = [
  [
    "bash, short command",
    "bash",
    { command: "git commit -am 'fix: src/app.ts and tests/app.test.ts' && npm test" },
    2_000,
  ],
  [
    "write_file, 60 KB of code",
    "write_file",
    {
      path: "src/index.ts",
      content: Array.from({ length: 1_600 }, (_, i) => `import x${i} from "./lib/m${i}.js";`).join("\n"),
    },
    40,
  ],
  [
    "bash, 16 KB heredoc",
    "bash",
    { command: `cat > notes/out.md <<'EOF'\n${"some words here and src/a/b.ts there\n".repeat(430)}EOF` },
    40,
  ],
  // One line, one word full of quotes: each quote must not read the whole word again.
  [
    "write_file, 300 KB minified JSON",
    "write_file",
    {
      path: "data/records.json",
      content: JSON.stringify(
        Array.from({ length: 5_200 }, (_, i) => ({ id: i, name: `n${i}`, tags: ["x", "y"], at: { k: "v" } })),
      ),
    },
    Number(process.env.BENCH_LONG_RUNS ?? 3),
  ],
  // Options with letters glued to a path: each split is a path the check could walk.
  [
    "bash, 16 KB of glued options",
    "bash",
    {
      command: Array.from({ length: 330 }, (_, i) => `-abcdefghijklmnopqrstuvwxyzABCDE${i}/a/../b/../c`).join(
        " ",
      ),
    },
    Number(process.env.BENCH_LONG_RUNS ?? 3),
  ],
];
console.log("load", os.loadavg()[0]?.toFixed(1));
const shelves = await Promise.all(builds.map((b) => b.createShelf({ root, userDirs: [], events: false })));
const sessions = shelves.map((shelf) =>
  shelf.session({ message: "write notes", tools: ["write_file", "bash"] }),
);
for (const [label, tool, input, runs] of inputs) {
  const times: number[][] = builds.map(() => []);
  for (let round = 0; round < 7; round++)
    sessions.forEach((session, k) => {
      for (let i = 0; i < runs; i++) {
        const t = process.hrtime.bigint();
        session.guard({ name: tool, input });
        times[k]!.push(Number(process.hrtime.bigint() - t) / 1e3);
      }
    });
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(1);
  console.log(`${label}, guard p50 µs:`, times.map(p50).join(" vs "));
}
console.log("load", os.loadavg()[0]?.toFixed(1));
await Promise.all(shelves.map((s) => s.close()));
await rm(root, { recursive: true, force: true });
