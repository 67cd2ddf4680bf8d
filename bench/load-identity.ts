// What a load gives, as digests to compare two builds of core: the skills (every enumerable
// field, bodies included, read through the public getter), the diagnostics and the overridden
// files (`loadSkills`, what `skillshelf list` shows), each serialised in order, plus their
// counts. Two builds that load the same folder into the same shelf print the same lines.
// Usage: load-identity.ts <skills dir> [<dist/index.js>] [--prebuilt] [--refresh]; default:
// this checkout's core.
// --prebuilt: the shelf starts from a prebuilt shelf the build writes first (`buildPrebuiltShelf`,
//   into a temporary folder), as a cold start does; without it, the folders are scanned.
// --refresh: on a copy of the folder (in a temporary folder; the original is never written),
//   after the first load: for some names several files provide, the winner's folder is
//   deleted, renamed away or its file made invalid, a loser's file edited, a new copy added,
//   and some names only one file provides get a second file;
//   then refresh(), and its report and the state after are printed too. With --prebuilt, the
//   first round of such changes is made after the build (a stale prebuilt shelf) and a second
//   one before the refresh.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { skillDirOptions } from "./skill-dir.ts";

const args = process.argv.slice(2);
const [dir, build] = args.filter((a) => !a.startsWith("--"));
const prebuilt = args.includes("--prebuilt");
const refresh = args.includes("--refresh");
if (!dir) throw new Error("usage: load-identity.ts <skills dir> [<dist/index.js>] [--prebuilt] [--refresh]");
const core = (await import(build ?? "@skillshelf/core")) as typeof import("@skillshelf/core");

const digest = (items: readonly unknown[]) => {
  const hash = crypto.createHash("sha256");
  for (const item of items) hash.update(`${JSON.stringify(item)}\n`);
  return hash.digest("hex").slice(0, 16);
};
const work = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-identity-"));
const stateDir = path.join(work, "state");
// Paths are printed relative to the folder, so a copy digests as the original does.
let skillsDir = path.resolve(dir);
if (refresh) {
  skillsDir = path.join(work, "skills");
  fs.cpSync(path.resolve(dir), skillsDir, { recursive: true });
  // A copy of a read-only folder is read-only too: the changes below need to write.
  for (const entry of fs.readdirSync(skillsDir, { recursive: true, withFileTypes: true }))
    fs.chmodSync(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
  fs.chmodSync(skillsDir, 0o755);
}
const relative = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value ?? null).replaceAll(JSON.stringify(skillsDir).slice(1, -1), "<dir>"));
const options = { ...skillDirOptions(skillsDir), stateDir };

/** The loaded state as digests (the overridden files from a one-shot load of the same folders). */
async function state(shelf: Awaited<ReturnType<typeof core.createShelf>>) {
  const skills = shelf.skills();
  const diagnostics = shelf.diagnostics().filter((d) => !d.code.startsWith("prebuilt-"));
  const once = await core.loadSkills({ ...options, builtins: [] });
  return {
    skills: skills.length,
    skillsDigest: digest(skills.map((skill) => relative({ ...skill }))),
    diagnostics: diagnostics.length,
    diagnosticsDigest: digest(diagnostics.map(relative)),
    spreadDiagnosticsDigest: digest(diagnostics.map((d) => relative({ ...d }))),
    prebuiltNotes: shelf.diagnostics().filter((d) => d.code.startsWith("prebuilt-")).length,
    overridden: once.overridden.length,
    overriddenDigest: digest(once.overridden.map(relative)),
  };
}

/**
 * One round of changes to names several files provide (every `step`-th such name, from
 * `offset`): what happens to the winner cycles through deleted, renamed away, made invalid,
 * left alone with a loser edited, and a new copy added in a folder of its own.
 */
async function changeContested(offset: number, step: number): Promise<number> {
  const once = await core.loadSkills({ ...options, builtins: [] });
  const winners = new Map(once.skills.map((s) => [s.name, s.file]));
  const losers = new Map<string, string>();
  for (const o of once.overridden) if (!losers.has(o.name)) losers.set(o.name, o.file);
  const names = [...losers.keys()].sort();
  let changes = 0;
  for (let i = offset; i < names.length; i += step) {
    const name = names[i] as string;
    const winner = winners.get(name);
    const loser = losers.get(name) as string;
    if (!winner || !fs.existsSync(winner)) continue;
    const kind = changes % 5;
    if (kind === 0) fs.rmSync(path.dirname(winner), { recursive: true, force: true });
    else if (kind === 1) fs.renameSync(path.dirname(winner), `${path.dirname(winner)}-renamed-away.off`);
    else if (kind === 2) fs.writeFileSync(winner, "---\nname: [unclosed\n---\nbroken\n");
    else if (kind === 3) fs.appendFileSync(loser, `\n\nEdited copy ${i}.\n`);
    else {
      const copy = path.join(skillsDir, `zz-new-copy-${i}`);
      fs.mkdirSync(copy, { recursive: true });
      fs.copyFileSync(loser, path.join(copy, "SKILL.md"));
    }
    changes++;
  }
  // Names only one file provides get a second one too (a copy in a folder of its own).
  const single = once.skills.filter((s) => !losers.has(s.name) && s.file !== undefined);
  for (let i = offset; i < single.length; i += step * 3) {
    const copy = path.join(skillsDir, `zz-second-copy-${i}`);
    fs.mkdirSync(copy, { recursive: true });
    fs.copyFileSync((single[i] as { file: string }).file, path.join(copy, "SKILL.md"));
    changes++;
  }
  return changes;
}

const out: Record<string, unknown> = { mode: prebuilt ? "prebuilt" : "scan" };
if (prebuilt) {
  await core.buildPrebuiltShelf({ ...options, out: path.join(stateDir, "prebuilt-shelf.bin") });
  if (refresh) out.staleChanges = await changeContested(0, 37);
}
const shelf = await core.createShelf(options);
out.load = await state(shelf);
if (refresh) {
  out.refreshChanges = await changeContested(11, 29);
  const result = await shelf.refresh({ full: true });
  out.refresh = {
    changed: result.changed,
    added: result.added.length,
    updated: result.updated.length,
    removed: result.removed.length,
    namesDigest: digest([result.added, result.updated, result.removed]),
    diagnostics: result.diagnostics.length,
    diagnosticsDigest: digest(result.diagnostics.map(relative)),
  };
  out.afterRefresh = await state(shelf);
}
console.log(JSON.stringify(out));
await shelf.close();
fs.rmSync(work, { recursive: true, force: true });
