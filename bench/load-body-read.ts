// What the first read of a skill's body costs once bodies are read from their file on first
// use: createShelf on <skills dir>, then `skill.body` of the first 400 skills, timed one by
// one, then the same reads again. Prints one JSON line (ms).
// Usage: load-body-read.ts <skills dir>; SKILLSHELF_CORE=<dist/index.js> times another build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { skillDirOptions } from "./skill-dir.ts";

const { createShelf } = (await import(
  process.env.SKILLSHELF_CORE ?? "@skillshelf/core"
)) as typeof import("@skillshelf/core");

const [dir] = process.argv.slice(2);
if (!dir) throw new Error("usage: load-body-read.ts <skills dir>");
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-state-"));
const shelf = await createShelf({ ...skillDirOptions(dir), stateDir });
const skills = shelf.skills().slice(0, 400);
const first: number[] = [];
let chars = 0;
for (const skill of skills) {
  const start = performance.now();
  chars += skill.body.length;
  first.push(performance.now() - start);
}
const againStart = performance.now();
for (const skill of skills) chars += skill.body.length;
const againMs = (performance.now() - againStart) / skills.length;
first.sort((a, b) => a - b);
const at = (q: number) => first[Math.min(first.length - 1, Math.floor(first.length * q))] as number;
console.log(
  JSON.stringify({ skills: skills.length, p50: at(0.5), p90: at(0.9), max: at(1), againMs, chars }),
);
await shelf.close();
fs.rmSync(stateDir, { recursive: true, force: true });
