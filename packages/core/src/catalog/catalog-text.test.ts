/**
 * The catalog's text, sliced from its usage order's lines joined once (catalog-text.ts), is
 * the text of its lines joined: checked against the same catalog built through the exact
 * tokenizer's path (which joins its lines), and on a real shelf whose skill is edited
 * between two plans.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testSkill as skill } from "../match/test-utils/skill.js";
import { createShelf, type Shelf } from "../shelf.js";
import type { Skill } from "../types.js";
import { createMemoryUsageStore } from "../usage/store.js";
import { buildCatalog, type CatalogOptions } from "./catalog.js";
import { estimateTokens } from "./tokens.js";

const now = new Date("2026-05-01T00:00:00.000Z");
const SKILLS: Skill[] = Array.from({ length: 400 }, (_, i) =>
  skill({
    name: `skill-${String(i).padStart(3, "0")}`,
    description: `Handles task number ${i} ${"with care ".repeat(i % 7)}for the team.`,
    whenToUse: i % 3 === 0 ? `When the user asks about item ${i}.` : undefined,
    exclusions: i % 5 === 0 ? [`item ${i + 1}`] : [],
  }),
);
const usage = createMemoryUsageStore(
  Object.fromEntries(
    SKILLS.filter((_, i) => i % 4 === 0).map((s, k) => [
      s.name,
      {
        count: k % 5,
        lastUsed: new Date(now.getTime() - k * 3_600_000).toISOString(),
        firstSeen: now.toISOString(),
      },
    ]),
  ),
);

/** The same catalog through the path that joins every line (a tokenizer that is not the default). */
const joined = (options: CatalogOptions) =>
  buildCatalog({ ...options, countTokens: (t) => estimateTokens(t) });

describe("the catalog text sliced from the joined usage order", () => {
  const cases: Array<[string, Partial<CatalogOptions>]> = [
    ["no candidates", {}],
    [
      "candidates from the middle and the end of the order",
      { candidates: ["skill-201", "skill-007", "skill-399"] },
    ],
    ["a candidate listed twice and one unknown", { candidates: ["skill-050", "nope", "skill-050"] }],
    [
      "excluded skills inside the listed run",
      { candidates: ["skill-300"], exclude: ["skill-004", "skill-008", "skill-300"] },
    ],
    ["a budget past the first lines joined", { budgetTokens: 60_000, candidates: ["skill-100"] }],
    ["a budget that leaves a names-only section", { budgetTokens: 600, candidates: ["skill-002"] }],
    ["a budget that names only", { budgetTokens: 120 }],
    ["a shorter entry cap", { entryCap: 40, candidates: ["skill-010", "skill-011"] }],
  ];
  for (const [what, extra] of cases) {
    it(`is the joined text: ${what}`, () => {
      const options: CatalogOptions = { skills: SKILLS, usage, now, ...extra };
      const sliced = buildCatalog(options);
      const reference = joined(options);
      expect(sliced.entries).toEqual(reference.entries);
      expect(sliced.omitted).toBe(reference.omitted);
      expect(sliced.text).toBe(reference.text);
    });
  }

  it("follows the entry cap when one list is asked with two caps in turn", () => {
    for (const entryCap of [250, 60, 250]) {
      const options: CatalogOptions = { skills: SKILLS, usage, now, entryCap, candidates: ["skill-123"] };
      expect(buildCatalog(options).text).toBe(joined(options).text);
    }
  });
});

describe("a skill edited between two plans", () => {
  let root: string | undefined;
  let shelf: Shelf | undefined;
  afterEach(async () => {
    await shelf?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("shows its new description in the next plan's catalog", async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-catalog-text-"));
    const write = async (name: string, description: string) => {
      const dir = path.join(root as string, ".skillshelf", "skills", name);
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, "SKILL.md"),
        `---\nname: ${name}\ndescription: ${description}\n---\nDo it.\n`,
      );
    };
    for (let i = 0; i < 30; i++)
      await write(`tool-${i}`, `Works on gadget ${i} — when asked about gadget ${i}.`);
    shelf = await createShelf({ root, userDirs: [], events: false });
    const plan = async () => (await (shelf as Shelf).openSession({ message: "Hello there" })).plan().system;
    const before = await plan();
    expect(before).toContain("tool-7: Works on gadget 7 — when asked about gadget 7.");
    await write("tool-7", "Polishes sprockets — when sprockets are dull.");
    await shelf.refresh();
    const after = await plan();
    expect(after).toContain("tool-7: Polishes sprockets — when sprockets are dull.");
    expect(after).not.toContain("Works on gadget 7");
    expect(after).toContain("tool-8: Works on gadget 8 — when asked about gadget 8.");
  });
});
