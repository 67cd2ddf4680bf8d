/** Runs the skills-ref fixture table (test/fixtures/skills-ref.ts) against readSkillFile/parseSkill. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SKILLS_REF_CASES, type SkillsRefCase } from "../../test/fixtures/skills-ref.js";
import type { ParseMode, ParseResult } from "../types.js";
import { parseSkill } from "./parse-skill.js";
import { readSkillFile } from "./read-skill-file.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "skillshelf-skills-ref-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Content-only cases parse text (no folder to compare); the rest go through the file system. */
async function run(row: SkillsRefCase, index: number, mode: ParseMode): Promise<ParseResult> {
  if (row.folder === undefined && row.file === undefined && row.target === undefined) {
    return parseSkill(row.content ?? "", { mode, folderName: false });
  }
  const caseRoot = join(root, `${index}-${mode}`);
  const folder = row.folder === undefined ? caseRoot : join(caseRoot, row.folder);
  await mkdir(folder, { recursive: true });
  const file = join(folder, row.file ?? "SKILL.md");
  if (row.content !== undefined) await writeFile(file, row.content);
  return readSkillFile(row.target === undefined ? file : join(caseRoot, row.target), { mode });
}

describe("skills-ref tests, restated as a table", () => {
  it("has one row per ported upstream test", () => {
    expect(SKILLS_REF_CASES).toHaveLength(33);
    expect(new Set(SKILLS_REF_CASES.map((row) => row.source)).size).toBe(SKILLS_REF_CASES.length);
  });

  it.each(SKILLS_REF_CASES.map((row, index) => [row.source, row, index] as const))(
    "%s",
    async (_source, row, index) => {
      const strict = await run(row, index, "strict");
      expect(strict.diagnostics.map((d) => d.code)).toEqual(row.strict);
      expect(strict.skill === undefined).toBe(row.strict.length > 0);
      for (const d of strict.diagnostics) expect(d.line).toBeGreaterThanOrEqual(1);

      const lenient = await run(row, index, "lenient");
      expect(lenient.diagnostics.map((d) => d.code)).toEqual(row.lenient.codes);
      expect(lenient.skill !== undefined).toBe(row.lenient.loads);
      if (row.skill) {
        expect(lenient.skill).toMatchObject(row.skill);
        if (row.strict.length === 0) expect(strict.skill).toMatchObject(row.skill);
      }
      if (row.bodyIncludes) expect(lenient.skill?.body).toContain(row.bodyIncludes);
    },
  );
});
