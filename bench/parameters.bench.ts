/**
 * Typed parameters' cost: checking an activation's arguments against a skill's schema (warm),
 * a whole activation of a typed skill beside the same skill without a schema, and, in fresh
 * processes, what the first typed skill costs (loading ajv, ajv-formats and re2js, compiling
 * the schema) and that importing @skillshelf/core loads none of them.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createShelf, type Shelf, validateArguments } from "@skillshelf/core";
import { formatMs, measure, median } from "./lib.ts";

const here = path.dirname(fileURLToPath(import.meta.url));

const SCHEMA = {
  type: "object",
  properties: {
    time_range: {
      type: "string",
      enum: ["current_month", "last_month", "last_3_months", "last_7_days", "custom"],
      description: "The period; custom needs start_date and end_date.",
    },
    start_date: { type: "string", format: "date" },
    end_date: { type: "string", format: "date" },
    limit: { type: "integer", minimum: 1, maximum: 100, default: 10 },
  },
  required: ["time_range"],
  additionalProperties: false,
};

const skillMd = (name: string) =>
  `---\nname: ${name}\ndescription: Query member spending for a time range.\ntriggers: [member spending]\n---\nQuery the top $limit members for $time_range.\n`;

async function shelfIn(root: string, typed: boolean): Promise<Shelf> {
  const dir = path.join(root, ".skillshelf", "skills", "member-query");
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "SKILL.md"), skillMd("member-query"));
  if (typed) await writeFile(path.join(dir, "schema.json"), JSON.stringify(SCHEMA));
  return createShelf({ root, userDirs: [], events: false });
}

/** CPU ms of `script` in a fresh process (median of `runs`), run from bench/ so it imports the built core. */
function freshCpu(script: string, runs: number): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++)
    samples.push(
      Number(
        execFileSync(process.execPath, ["--input-type=module", "-e", script], {
          cwd: here,
          encoding: "utf8",
        }),
      ),
    );
  return median(samples);
}

export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-bench-params-"));
  try {
    const typed = await shelfIn(path.join(root, "typed"), true);
    const plain = await shelfIn(path.join(root, "plain"), false);
    const skill = typed.get("member-query")!;
    const activate = (shelf: Shelf, input: Record<string, unknown>) => () => {
      const session = shelf.session({ message: "member spending this month" });
      session.plan();
      return session.callSkillTool({ id: "c1", name: "skill_member-query", input });
    };
    const rows = await measure([
      [
        "validateArguments, valid (defaults filled)",
        () => validateArguments(skill, { time_range: "current_month" }),
      ],
      [
        "validateArguments, 3 fields wrong (the refusal built)",
        () => validateArguments(skill, { time_range: "this month", start_date: "June", limit: 0 }),
      ],
      ["open + plan + activate, skill without a schema", activate(plain, { args: "current_month" })],
      ["open + plan + activate, typed skill", activate(typed, { time_range: "current_month" })],
    ]);
    console.log("| task | median | samples |\n|---|---:|---:|");
    for (const row of rows)
      console.log(`| ${row.name} | ${(row.median * 1000).toFixed(1)} µs | ${row.samples} |`);
    await typed.close();
    await plain.close();

    const dir = path.join(root, "fresh", ".skillshelf", "skills", "member-query");
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "SKILL.md"), skillMd("member-query"));
    await writeFile(path.join(dir, "schema.json"), JSON.stringify(SCHEMA));
    const first = `
import { loadSkills, skillParameters } from "@skillshelf/core";
const { skills } = await loadSkills({ projectDirs: [${JSON.stringify(path.dirname(dir))}], userDirs: [] });
const cpu = process.cpuUsage();
skillParameters(skills[0]);
const used = process.cpuUsage(cpu);
process.stdout.write(String((used.user + used.system) / 1000));`;
    const imported = `
import { createRequire } from "node:module";
await import("@skillshelf/core");
const cache = Object.keys(createRequire(import.meta.url).cache);
process.stdout.write(cache.some((k) => /[\\\\/](ajv|ajv-formats|re2js)[\\\\/]/.test(k)) ? "1" : "0");`;
    const firstMs = freshCpu(first, 7);
    const loaded = execFileSync(process.execPath, ["--input-type=module", "-e", imported], {
      cwd: here,
      encoding: "utf8",
    });
    console.log(
      `\n- First typed skill in a fresh process (ajv + ajv-formats + re2js loaded, schema compiled): ${formatMs(firstMs)} CPU (median of 7).`,
    );
    console.log(
      `- \`import "@skillshelf/core"\` loads ajv, ajv-formats or re2js: ${loaded === "1" ? "yes" : "no"}.`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
