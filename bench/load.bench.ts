/**
 * Loading: cold load of 1,000 and 10,000 real skills, refresh() with nothing changed, and
 * the same folders loaded by deepagents, Mastra and the npm skills-ref port.
 *
 * The folders are built from ../shared/data/skills-corpus (corpus.ts). Every loader reads
 * the same files; each is used through its public entry point as an application would:
 * - deepagents `listSkills({ projectSkillsDir })` (sync fs) and its agent middleware's
 *   loader (`createSkillsMiddleware({ backend: new FilesystemBackend(...) })`, whose
 *   `beforeModel` hook lists skills from the backend when `skillsMetadata` is null);
 * - Mastra `new Workspace({ filesystem: new LocalFilesystem(...), skills: [...] }).skills.list()`;
 * - skills-ref `readProperties(dir)` for every skill folder (it has no folder scan of its own).
 * Baselines log every skipped file with console.warn/error; that output is silenced.
 *
 * Each library is imported on first use (`lib`), so a fresh process (fresh-load.ts) can time
 * the first load with the library already imported, or the import and the first load together.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSkillTree } from "./corpus.ts";
import { type Measured, measure, median, table } from "./lib.ts";
import { scaleRows } from "./load-scale.bench.ts";

/** The libraries, imported once, on first use. */
const lib = {
  skillshelf: once(() => import("@skillshelf/core")),
  deepagents: once(() => import("deepagents")),
  mastra: once(() => import("@mastra/core/workspace")),
  skillsRef: once(() => import("skills-ref")),
};

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

interface Loader {
  /** Imports what `load` uses (a fresh process times the load with or without this). */
  prepare: () => Promise<unknown>;
  load: (dir: string) => Promise<number>;
}

/** Runs a baseline with its console logging (one line per skipped or long file) silenced. */
const quiet = async <T>(fn: () => Promise<T>): Promise<T> => {
  const saved = [console.warn, console.error, console.debug, console.log, console.info] as const;
  const writes = [process.stdout.write, process.stderr.write] as const;
  const mute = () => undefined;
  console.warn = console.error = console.debug = console.log = console.info = mute;
  // Some loggers keep their own reference to console methods: silence the streams too.
  process.stdout.write = process.stderr.write = (() => true) as typeof process.stdout.write;
  try {
    return await fn();
  } finally {
    [console.warn, console.error, console.debug, console.log, console.info] = saved;
    [process.stdout.write, process.stderr.write] = writes;
  }
};

/** The shelf options every skillshelf measurement uses: one project folder, nothing else. */
const shelfOptions = (dir: string) => ({
  root: path.dirname(dir),
  projectDirs: [dir],
  userDirs: [],
  builtinRoles: false,
  events: false as const,
});

export const loaders: Record<string, Loader> = {
  skillshelf: {
    prepare: lib.skillshelf,
    load: async (dir) => {
      const { createShelf } = await lib.skillshelf();
      const shelf = await createShelf(shelfOptions(dir));
      return shelf.skills().length;
    },
  },
  "deepagents listSkills": {
    prepare: lib.deepagents,
    load: async (dir) => {
      const { listSkills } = await lib.deepagents();
      return quiet(async () => listSkills({ projectSkillsDir: dir }).length);
    },
  },
  "deepagents middleware (FilesystemBackend)": {
    prepare: lib.deepagents,
    load: async (dir) => {
      const { createSkillsMiddleware, FilesystemBackend } = await lib.deepagents();
      return quiet(async () => {
        const middleware = createSkillsMiddleware({
          backend: new FilesystemBackend({ rootDir: dir }),
          sources: [dir],
        });
        const hook = middleware.beforeModel as unknown;
        const run = (typeof hook === "function" ? hook : (hook as { hook: unknown }).hook) as (
          state: unknown,
          runtime: unknown,
        ) => Promise<{ skillsMetadata: unknown[] }>;
        return (await run({ skillsMetadata: null }, {})).skillsMetadata.length;
      });
    },
  },
  "Mastra Workspace skills.list()": {
    prepare: lib.mastra,
    load: async (dir) => {
      const { LocalFilesystem, Workspace } = await lib.mastra();
      return quiet(async () => {
        const workspace = new Workspace({
          filesystem: new LocalFilesystem({ basePath: path.dirname(dir) }),
          skills: [path.basename(dir)],
        });
        return (await workspace.skills!.list()).length;
      });
    },
  },
  "skills-ref readProperties": {
    prepare: lib.skillsRef,
    load: async (dir) => {
      const { readProperties } = await lib.skillsRef();
      const entries = await fs.promises.readdir(dir, { withFileTypes: true });
      const results = await Promise.allSettled(
        entries.filter((e) => e.isDirectory()).map((e) => readProperties(path.join(dir, e.name))),
      );
      return results.filter((r) => r.status === "fulfilled").length;
    },
  },
};

async function coldLoads(dir: string, options: Parameters<typeof measure>[1]): Promise<Measured[]> {
  return measure(
    Object.entries(loaders).map(([name, loader]) => [name, () => loader.load(dir)] as const),
    options,
  );
}

/**
 * The first load in a new Node process (JIT cold): with the library imported before the
 * clock starts, or (`withImport`) the library's import and the first load together.
 * Medians of wall time and of CPU time (all threads).
 */
function freshProcessMedians(
  name: string,
  dir: string,
  runs: number,
  withImport = false,
): { wall: number; cpu: number } {
  const script = fileURLToPath(new URL("./fresh-load.ts", import.meta.url));
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(
      process.execPath,
      [
        "--experimental-strip-types",
        "--no-warnings",
        script,
        name,
        dir,
        ...(withImport ? ["--with-import"] : []),
      ],
      { encoding: "utf8" },
    );
    const result = JSON.parse(out.trim().split("\n").pop()!) as { ms: number; cpuMs: number };
    wall.push(result.ms);
    cpu.push(result.cpuMs);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

/** Prints even while baselines' console output is muted. */
const print = (text: string) => process.stdout.write(`${text}\n`);

export async function run(): Promise<void> {
  // Baselines also log from code paths the per-call muting misses; keep the suite's output readable.
  const saved = [console.warn, console.error, console.debug, console.info, console.log] as const;
  console.warn = console.error = console.debug = console.info = console.log = () => undefined;
  try {
    await suite();
  } finally {
    [console.warn, console.error, console.debug, console.info, console.log] = saved;
  }
}

async function suite(): Promise<void> {
  const dir1k = buildSkillTree(1_000);
  const dir10k = buildSkillTree(10_000);

  const counts: Record<string, string> = {};
  for (const [name, loader] of Object.entries(loaders))
    counts[name] = ` (${await loader.load(dir1k)} loaded)`;

  print("### Cold load, 1,000 skills (same process, warm JIT; tinybench median)\n");
  const cold1k = await coldLoads(dir1k, { iterations: 20, time: 2000 });
  print(table(cold1k, "skillshelf", counts));

  const FRESH_RUNS = 9;
  for (const withImport of [false, true]) {
    print(
      withImport
        ? `\n### Cold load, 1,000 skills, fresh process, import of the library + first load (median of ${FRESH_RUNS})\n`
        : `\n### Cold load, 1,000 skills, first load in a fresh process, library already imported (median of ${FRESH_RUNS})\n`,
    );
    const medians = Object.keys(loaders).map((name) => ({
      name,
      ...freshProcessMedians(name, dir1k, FRESH_RUNS, withImport),
    }));
    print(
      table(
        medians.map((m) => ({ name: m.name, median: m.wall, samples: FRESH_RUNS })),
        "skillshelf",
      ),
    );
    print("\nCPU time of the same runs (all threads: JIT compilers and GC helpers included):\n");
    print(
      table(
        medians.map((m) => ({ name: m.name, median: m.cpu, samples: FRESH_RUNS })),
        "skillshelf",
      ),
    );
  }

  print("\n### Cold load, 10,000 skills (tinybench median)\n");
  const counts10k: Record<string, string> = {};
  for (const [name, loader] of Object.entries(loaders))
    counts10k[name] = ` (${await loader.load(dir10k)} loaded)`;
  const cold10k = await coldLoads(dir10k, { iterations: 5, time: 0, warmupIterations: 1 });
  print(table(cold10k, "skillshelf", counts10k));

  print("\n### refresh() with nothing changed\n");
  const { createShelf, parseSkill } = await lib.skillshelf();
  const { parseFrontmatter } = await lib.skillsRef();
  const shelf1k = await createShelf(shelfOptions(dir1k));
  const shelf10k = await createShelf(shelfOptions(dir10k));
  const refresh = await measure(
    [
      ["skillshelf refresh(), 1,000 skills", () => shelf1k.refresh()],
      ["skillshelf refresh(), 10,000 skills", () => shelf10k.refresh()],
    ],
    { iterations: 200, time: 1500 },
  );
  print(table(refresh, "skillshelf refresh(), 1,000 skills"));

  // parseSkill validates, normalises and hashes (sha256 of the exact bytes; a string is hashed
  // as its UTF-8, which costs an encoding pass); parseFrontmatter splits and YAML-loads only.
  print("\n### Parsing only (1,000 corpus files already in memory)\n");
  const texts = fs
    .readdirSync(dir1k)
    .map((name) => ({ file: path.join(dir1k, name, "SKILL.md") }))
    .map(({ file }) => ({ file, text: fs.readFileSync(file, "utf8"), bytes: fs.readFileSync(file) }));
  const parsing = await measure(
    [
      [
        "skillshelf parseSkill",
        () => {
          for (const { file, text } of texts) parseSkill(text, { path: file });
        },
      ],
      [
        "skillshelf parseSkill, bytes (as the loader reads them)",
        () => {
          for (const { file, bytes } of texts) parseSkill(bytes, { path: file });
        },
      ],
      [
        "skills-ref parseFrontmatter",
        () => {
          for (const { text } of texts) {
            try {
              parseFrontmatter(text);
            } catch {
              // counted like a skipped file
            }
          }
        },
      ],
    ],
    { iterations: 30, time: 1500 },
  );
  print(table(parsing, "skillshelf parseSkill"));

  print("\n### Real files: the mirror and parts of it, beside the copied corpus (load-scale.bench.ts)\n");
  await scaleRows(3, print);
}
