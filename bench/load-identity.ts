// What a load gives, as digests to compare two builds of core: the skills (every enumerable
// field, bodies included, read through the public getter), the diagnostics and the overridden
// files, each serialised in order, plus their counts. Two builds that load the same folder
// into the same shelf print the same line.
// Usage: load-identity.ts <skills dir> [<dist/index.js>]; default: this checkout's core.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { skillDirOptions } from "./skill-dir.ts";

const [dir, build] = process.argv.slice(2);
if (!dir) throw new Error("usage: load-identity.ts <skills dir> [<dist/index.js>]");
const { createShelf } = (await import(build ?? "@skillshelf/core")) as typeof import("@skillshelf/core");

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-state-"));
const shelf = await createShelf({ ...skillDirOptions(dir), stateDir });
const digest = (items: readonly unknown[]) => {
  const hash = crypto.createHash("sha256");
  for (const item of items) hash.update(`${JSON.stringify(item)}\n`);
  return hash.digest("hex").slice(0, 16);
};
const skills = shelf.skills();
const overridden = (shelf as unknown as { overridden?: () => readonly unknown[] }).overridden?.() ?? [];
console.log(
  JSON.stringify({
    skills: skills.length,
    skillsDigest: digest(skills.map((skill) => ({ ...skill }))),
    diagnostics: shelf.diagnostics().length,
    diagnosticsDigest: digest(shelf.diagnostics()),
    spreadDiagnosticsDigest: digest(shelf.diagnostics().map((d) => ({ ...d }))),
    overridden: overridden.length,
    overriddenDigest: digest(overridden),
  }),
);
await shelf.close();
fs.rmSync(stateDir, { recursive: true, force: true });
