/**
 * The whole real-world corpus (shared/data/skills-corpus: 939 SKILL.md files from seven
 * public repositories) through readSkillFile, in both modes. Nothing may throw; every file
 * is either loaded or skipped with a located error; and the counts by diagnostic code are
 * pinned, so any change in what the parser reports on real files is a visible diff here.
 */
import { basename, join } from "node:path";
import { describeWithSharedData, readSharedText } from "@skillshelf/test-utils";
import { expect, it } from "vitest";
import { readSkillFile } from "../src/parse/read-skill-file.js";
import type { ParseMode, ParseResult } from "../src/types.js";
import { SHARED_DATA } from "./fixtures/shared-data.js";

const CORPUS = join(SHARED_DATA, "skills-corpus");
const FILES = readSharedText("skills-corpus/MANIFEST.tsv")
  .split("\n")
  .slice(1)
  .map((line) => line.split("\t")[0] ?? "")
  .filter((path) => basename(path) === "SKILL.md")
  .map((path) => join(CORPUS, path));

async function parseAll(mode: ParseMode) {
  const results: Array<{ file: string; result: ParseResult }> = [];
  for (const file of FILES) results.push({ file, result: await readSkillFile(file, { mode }) });
  const counts: Record<string, number> = {};
  for (const { result } of results) {
    for (const d of result.diagnostics) {
      const key = `${d.severity}:${d.code}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  }
  return { results, counts, loaded: results.filter((r) => r.result.skill !== undefined).length };
}

function expectEveryFileAccountedFor(results: Array<{ file: string; result: ParseResult }>) {
  for (const { file, result } of results) {
    for (const d of result.diagnostics) {
      expect(d.file).toBe(file);
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.hint).not.toBe("");
    }
    if (result.skill === undefined) {
      expect(result.diagnostics.some((d) => d.severity === "error")).toBe(true);
    } else {
      expect(result.skill.file).toBe(file);
      expect(result.skill.name).not.toBe("");
      expect(result.skill.description).not.toBe("");
      expect(result.skill.hash).toMatch(/^[0-9a-f]{64}$/);
    }
  }
}

describeWithSharedData("the skills corpus", () => {
  it("lists 939 SKILL.md files", () => {
    expect(FILES).toHaveLength(939);
  });

  it("lenient: every file loads; the warnings are the real files' real problems", async () => {
    const { results, counts, loaded } = await parseAll("lenient");
    expectEveryFileAccountedFor(results);
    expect(loaded).toBe(939);
    expect(counts).toEqual({
      // 41 zoom-plugin skills named e.g. "zoom-general" in folder "general", 15 qdrant
      // skills ("qdrant-scaling-qps" in "scaling-qps"), postgresql-table-design in "postgresql".
      "warning:name-mismatch": 57,
      // 12 zoom-plugin names with a slash ("contact-center/android").
      "warning:invalid-name": 12,
      // anthropics/skills claude-api: 1,068 characters.
      "warning:description-too-long": 1,
    });
  });

  it("strict: the same problems become errors, plus the spec's stricter rules", async () => {
    const { results, counts, loaded } = await parseAll("strict");
    expectEveryFileAccountedFor(results);
    expect(counts).toEqual({
      "error:name-mismatch": 57,
      "error:invalid-name": 12,
      "error:description-too-long": 1,
      // awesome-copilot descriptions with `<`/`>`: generics (IRecipient<T>), "Epic > Feature",
      // "->" arrows, and command syntax like `/remember >domain`.
      "error:description-angle-brackets": 5,
      // awesome-copilot: `authors`, `category` (its `context: fork` is Claude Code's field, accepted).
      "error:unknown-field": 2,
      // bodies over the spec's recommended 500 lines.
      "warning:body-too-long": 85,
    });
    // 874: microsoft-skill-creator failed strict only on `context: fork`, now a known field.
    expect(loaded).toBe(874);
  });
});
