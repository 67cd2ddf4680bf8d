/**
 * A hostile skill's `paths` against the host's time, at the caps: 32 globs of 256 characters
 * each, every one a `{1..255}` range eight times over, took seconds to compile on RE2, and 32
 * globs like `*a*a…` cost tens of milliseconds on every plan that mentions 64 long paths. The
 * globs a skill may compile are bounded at load (with a diagnostic on the `paths` line), and the
 * work of matching one skill's globs in one plan is bounded too; past either bound the glob
 * matches nothing (the skill is for files it cannot name: fail closed).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";
import { parseSkill } from "./parse-skill.js";
import { matchesSkillPaths } from "./path-globs.js";

const RANGES = "{1..255}".repeat(32);
const STARS = "*a".repeat(128);
const skillFile = (name: string, paths: string[]) =>
  [
    "---",
    `name: ${name}`,
    `description: Fixes ${name} files.`,
    "paths:",
    ...paths.map((p) => `  - '${p}'`),
    "---",
    "Fix them.",
    "",
  ].join("\n");

describe("a skill's paths globs are bounded at load", () => {
  it("an over-budget glob is refused with a located diagnostic; the skill loads and its other globs work", () => {
    const text = skillFile("ranges", ["**/*.sql", ...Array.from({ length: 31 }, (_, i) => `${RANGES}${i}`)]);
    const result = parseSkill(text, { path: "/skills/ranges/SKILL.md" });
    expect(result.skill?.name).toBe("ranges");
    const refused = result.diagnostics.filter((d) => d.code === "paths-over-budget");
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]).toMatchObject({ file: "/skills/ranges/SKILL.md", line: 4, severity: "warning" });
    expect(refused[0]!.message).toMatch(/`paths` glob 2 .* matches no file/);
    expect(refused[0]!.hint).not.toBe("");
    // The admitted glob still gates the skill; a refused one matches nothing.
    expect(matchesSkillPaths(result.skill!, ["db/report.sql"])).toBe(true);
    expect(matchesSkillPaths(result.skill!, [`${"1".repeat(32)}0`])).toBe(false);
  });

  it("an over-budget glob matches nothing even when no load reported it (a prebuilt shelf's record)", () => {
    expect(matchesSkillPaths({ paths: [RANGES] }, ["1".repeat(32)])).toBe(false);
    // Within the budget the same kind of glob means what it says.
    expect(matchesSkillPaths({ paths: ["{1..99}".repeat(2)] }, ["1199"])).toBe(true);
  });

  it("globs past the count and length caps are named in a diagnostic too", () => {
    const many = Array.from({ length: 34 }, (_, i) => `dir${i}/*.md`);
    const long = `${"a".repeat(300)}/*.md`;
    const result = parseSkill(skillFile("many", [...many.slice(0, 33), long]), { path: "/s/many/SKILL.md" });
    const messages = result.diagnostics.filter((d) => d.code === "paths-over-budget").map((d) => d.message);
    expect(messages.some((m) => m.includes("glob 33"))).toBe(true);
    expect(messages.some((m) => m.includes("glob 34"))).toBe(true);
  });

  it("a skill's usual globs are all admitted", () => {
    const globs = [
      "src/**/*.{ts,tsx}",
      "**/*.{js,jsx,ts,tsx,mjs,cjs}",
      "packages/*/src/**",
      "docs/**/*.md",
      ".github/workflows/*.yml",
      "Dockerfile",
      "a{1..12}.md",
    ];
    const result = parseSkill(skillFile("usual", globs), { path: "/s/usual/SKILL.md" });
    expect(result.diagnostics.filter((d) => d.code === "paths-over-budget")).toEqual([]);
  });
});

describe("matching one skill's globs in one plan is bounded", () => {
  it("a hit only past the work budget is not taken (fail closed)", () => {
    const stars = [STARS.slice(0, 200)];
    const long = Array.from({ length: 63 }, (_, i) => `${"a".repeat(500)}${i}.ts`);
    expect(matchesSkillPaths({ paths: [...stars, "**/*.sql"] }, ["db/x.sql"])).toBe(true);
    expect(matchesSkillPaths({ paths: [...stars, "**/*.sql"] }, [...long, "db/x.sql"])).toBe(false);
  });
});

describe("through a shelf loaded from real files", () => {
  let root: string;
  let shelf: Shelf;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-glob-budget-"));
    const dir = path.join(root, ".agents", "skills", "hostile-ranges");
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, "SKILL.md"),
      skillFile(
        "hostile-ranges",
        Array.from({ length: 32 }, (_, i) => `${RANGES}${i}`),
      ),
    );
    shelf = await createShelf({ root, userDirs: [], events: false, builtinRoles: false });
  });
  afterAll(async () => {
    await shelf?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("the load reports the refusal on the skill's file, and the skill stays on the shelf", () => {
    const refused = shelf.diagnostics().filter((d) => d.code === "paths-over-budget");
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.file).toBe(path.join(root, ".agents", "skills", "hostile-ranges", "SKILL.md"));
    expect(shelf.get("hostile-ranges")?.name).toBe("hostile-ranges");
  });
});
