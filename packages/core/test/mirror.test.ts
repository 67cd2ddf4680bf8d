/**
 * Robustness over shared/data/skills-mirror: 15,725 real SKILL.md files from 527 public
 * repositories, messy ones included (generator bugs, NUL bytes, hundreds of copies of one
 * name). Parse and resolution only, so it stays a few seconds: every file is parsed without
 * throwing, every file is either loaded or skipped with a located error on one of its own
 * lines, and the one-skill-per-name resolution over all of them (and the builtin roles)
 * completes. The counts by code are not pinned (the mirror is a snapshot others may
 * refresh); bench/RESULTS.md records them, printed with SKILLSHELF_MIRROR_COUNTS=1.
 */
import { readFileSync } from "node:fs";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { expect, it } from "vitest";
import { loadBuiltins } from "../src/load/builtin.js";
import { type ResolveEntry, resolveSkills } from "../src/load/resolve.js";
import { parseSkill } from "../src/parse/parse-skill.js";
import { builtinRoleSkills } from "../src/roles/builtin-roles.js";
import type { ParseMode, Skill } from "../src/types.js";
import { mirrorSkillFiles } from "./fixtures/shared-data.js";

function parseMirror(files: readonly string[], mode: ParseMode) {
  const counts: Record<string, number> = {};
  const entries: ResolveEntry[] = [];
  for (const file of files) {
    const bytes = readFileSync(file);
    const result = parseSkill(bytes, { path: file, mode });
    const lines = bytes.toString("latin1").split("\n").length;
    for (const d of result.diagnostics) {
      counts[`${d.severity}:${d.code}`] = (counts[`${d.severity}:${d.code}`] ?? 0) + 1;
      expect(d.file).toBe(file);
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.line).toBeLessThanOrEqual(lines);
    }
    if (result.skill === undefined) {
      expect(result.diagnostics.some((d) => d.severity === "error")).toBe(true);
    } else {
      const skill: Skill = { ...result.skill, scope: "project", locked: false };
      entries.push({ skill, rank: 0, depth: 2 });
    }
  }
  // As on a default shelf: the builtin roles too (registries hold ordinary skills named like them).
  const builtins = loadBuiltins(builtinRoleSkills()).skills.map((skill) => ({ skill, rank: 0, depth: 0 }));
  const resolution = resolveSkills([...entries, ...builtins]);
  for (const d of resolution.diagnostics) {
    counts[`${d.severity}:${d.code}`] = (counts[`${d.severity}:${d.code}`] ?? 0) + 1;
  }
  if (process.env.SKILLSHELF_MIRROR_COUNTS) {
    const sorted = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
    console.log(
      mode,
      { files: files.length, loaded: entries.length, names: resolution.skills.length },
      sorted,
    );
  }
  return { loaded: entries.length + builtins.length, resolution };
}

describeWithSharedData("the skills mirror", () => {
  // Read in the tests, not while collecting them: a skipped describe still runs its body.
  // Each test reads or parses the whole mirror: 300 s, so a loaded 2-core CI machine holds.
  let cached: string[] | undefined;
  const mirror = () => {
    cached ??= mirrorSkillFiles();
    return cached;
  };

  it("holds the 15,725 files its notice describes", () => {
    expect(mirror()).toHaveLength(15_725);
  }, 300_000);

  for (const mode of ["lenient", "strict"] as const) {
    it(`${mode}: every file parses or is skipped with a located error, and names resolve`, () => {
      const { loaded, resolution } = parseMirror(mirror(), mode);
      expect(loaded).toBeGreaterThan(0);
      expect(resolution.skills.length).toBeLessThanOrEqual(loaded);
      expect(resolution.skills.length + resolution.overridden.length).toBe(loaded);
    }, 300_000);
  }
});
