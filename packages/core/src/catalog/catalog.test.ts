import { describe, expect, it } from "vitest";
import { testSkill as skill } from "../match/test-utils/skill.js";
import { createMemoryUsageStore, type UsageStore } from "../usage/store.js";
import { buildCatalog, catalogLine } from "./catalog.js";
import { estimateTokens } from "./tokens.js";

const now = new Date("2026-05-01T00:00:00.000Z");
const day = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString();

const a = skill({ name: "alpha", description: "First skill." });
const b = skill({ name: "beta", description: "Second skill.", whenToUse: "When beta things happen." });
const c = skill({ name: "gamma", description: "Third skill." });
const hidden = skill({ name: "hidden", description: "Only by /hidden.", disableModelInvocation: true });

describe("catalogLine", () => {
  it("is `name: description — when_to_use`, whitespace collapsed", () => {
    expect(catalogLine(b)).toBe("beta: Second skill. — When beta things happen.");
    expect(catalogLine(skill({ name: "x", description: "a\n  b" }))).toBe("x: a b");
  });

  it("cuts at a word to the cap, with an ellipsis", () => {
    const long = skill({ name: "long", description: "word ".repeat(100) });
    const line = catalogLine(long, 250);
    expect(line.length).toBeLessThanOrEqual(250);
    expect(line.endsWith("word…")).toBe(true);
  });
});

describe("buildCatalog", () => {
  it("lists candidates first, then the rest by last use, newest first", () => {
    const usage = createMemoryUsageStore({
      alpha: { count: 5, lastUsed: day(10), firstSeen: day(30) },
      beta: { count: 1, lastUsed: day(1), firstSeen: day(30) },
      gamma: { count: 0, firstSeen: day(20) },
    });
    const catalog = buildCatalog({ skills: [a, b, c], candidates: [{ name: "gamma" }], usage, now });
    expect(catalog.entries).toEqual([
      { name: "gamma", form: "full" },
      { name: "beta", form: "full" },
      { name: "alpha", form: "full" },
    ]);
    expect(catalog.text.split("\n").slice(1)).toEqual([
      "- gamma: Third skill.",
      "- beta: Second skill. — When beta things happen.",
      "- alpha: First skill.",
    ]);
  });

  it("puts a skill seen for the first time at the top (cold start) and remembers when it was seen", () => {
    const usage = createMemoryUsageStore({
      alpha: { count: 9, lastUsed: day(1), firstSeen: day(30) },
      beta: { count: 2, lastUsed: day(2), firstSeen: day(30) },
    });
    const catalog = buildCatalog({ skills: [a, b, c], usage, now });
    expect(catalog.entries.map((e) => e.name)).toEqual(["gamma", "alpha", "beta"]);
    expect(usage.get("gamma")?.firstSeen).toBe(now.toISOString());
    // A week later, unused, it has sunk below the skills used since.
    const later = new Date(now.getTime() + 7 * 86_400_000);
    usage.record("beta", later);
    expect(buildCatalog({ skills: [a, b, c], usage, now: later }).entries.map((e) => e.name)).toEqual([
      "beta",
      "gamma",
      "alpha",
    ]);
  });

  it("never lists disable-model-invocation skills or role skills", () => {
    const role = skill({ name: "researcher", description: "Research role.", role: true });
    const catalog = buildCatalog({ skills: [a, hidden, role], candidates: ["hidden", "researcher"], now });
    expect(catalog.entries.map((e) => e.name)).toEqual(["alpha"]);
    expect(catalog.text).not.toContain("hidden");
  });

  it("is empty when there is nothing to list", () => {
    expect(buildCatalog({ skills: [hidden], now })).toEqual({ text: "", tokens: 0, entries: [], omitted: 0 });
  });

  it("overflows to names only past the budget, and to '+N more' past that — never a silent drop", () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      skill({
        name: `skill-${String(i).padStart(2, "0")}`,
        description: "Does a thing that takes a few words to say. ".repeat(3),
      }),
    );
    const full = buildCatalog({ skills: many, now, budgetTokens: 100_000 });
    expect(full.entries.every((e) => e.form === "full")).toBe(true);

    const tight = buildCatalog({ skills: many, now, budgetTokens: 600 });
    expect(tight.tokens).toBeLessThanOrEqual(600);
    const forms = tight.entries.map((e) => e.form);
    expect(forms).toContain("full");
    expect(forms).toContain("name-only");
    expect(forms.indexOf("name-only")).toBeGreaterThan(forms.lastIndexOf("full"));
    expect(tight.entries.length + tight.omitted).toBe(60);
    expect(tight.text).toContain("More skills (name only");

    const tiny = buildCatalog({ skills: many, now, budgetTokens: 120 });
    expect(tiny.omitted).toBeGreaterThan(0);
    expect(tiny.entries.length + tiny.omitted).toBe(60);
    expect(tiny.text).toMatch(new RegExp(`\\+${tiny.omitted} more skills not listed here`));
    expect(tiny.tokens).toBeLessThanOrEqual(120);
  });

  it("counts with a pluggable exact tokenizer", () => {
    const byChars = (t: string) => t.length;
    const catalog = buildCatalog({ skills: [a, b, c], now, countTokens: byChars, budgetTokens: 10_000 });
    expect(catalog.tokens).toBe(catalog.text.length);
    const cut = buildCatalog({ skills: [a, b, c], now, countTokens: byChars, budgetTokens: 260 });
    expect(cut.tokens).toBeLessThanOrEqual(260);
    expect(cut.entries.some((e) => e.form === "name-only") || cut.omitted > 0).toBe(true);
  });

  it("counts its own text: the default estimate's running sum bounds the whole text", () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      skill({ name: `s-${i}`, description: "写一篇公众号文章 and more words. ".repeat(2) }),
    );
    for (const budget of [150, 400, 100_000]) {
      const catalog = buildCatalog({ skills: many, now, budgetTokens: budget });
      expect(catalog.tokens).toBeGreaterThanOrEqual(estimateTokens(catalog.text));
      expect(catalog.tokens).toBeLessThanOrEqual(Math.max(budget, estimateTokens(catalog.text)));
    }
  });

  it("counts its headings and '+N more' lines with the tokenizer and heading of each call", () => {
    const many = Array.from({ length: 40 }, (_, i) => skill({ name: `s-${i}`, description: `Skill ${i}.` }));
    const byChars = (t: string) => t.length;
    const byWords = (t: string) => t.split(/\s+/u).filter(Boolean).length * 2;
    // Alternating tokenizers, headings and budgets (so totals and omitted counts change): each
    // catalog must read as one counted on its own, never with another call's remembered costs.
    for (let round = 0; round < 12; round++) {
      const countTokens = round % 2 === 0 ? byChars : byWords;
      const heading = round % 3 === 0 ? "Skills:" : `Skills you may load, list ${round % 3}:`;
      const budgetTokens = 120 + round * 37;
      const skills = many.slice(0, 20 + round);
      const catalog = buildCatalog({ skills, now, countTokens, heading, budgetTokens });
      expect(catalog.text.startsWith(`${heading}\n`)).toBe(true);
      expect(catalog.tokens).toBe(countTokens(catalog.text));
      expect(catalog.tokens).toBeLessThanOrEqual(budgetTokens);
      const estimated = buildCatalog({ skills, now, heading, budgetTokens });
      expect(estimated.tokens).toBeGreaterThanOrEqual(estimateTokens(estimated.text));
      expect(estimated.tokens).toBeLessThanOrEqual(budgetTokens);
    }
  });

  it("re-renders a skill that changed and re-orders when usage changes (no stale cache)", () => {
    const usage = createMemoryUsageStore();
    const list = [a, b, c];
    expect(buildCatalog({ skills: list, usage, now }).entries.map((e) => e.name)).toEqual([
      "alpha",
      "beta",
      "gamma",
    ]);
    usage.record("gamma", new Date(now.getTime() + 1000));
    expect(buildCatalog({ skills: list, usage, now }).entries.map((e) => e.name)).toEqual([
      "gamma",
      "alpha",
      "beta",
    ]);
    const edited = [{ ...a, description: "First skill, edited." }, b, c];
    expect(buildCatalog({ skills: edited, usage, now }).text).toContain("- alpha: First skill, edited.");
  });

  it.each([
    ["names what changed", false],
    ["cannot name what changed", true],
  ])(
    "keeps the usage order a full sort gives while uses come in one or many at a time (a store that %s)",
    (_, blind) => {
      const many = Array.from({ length: 300 }, (_, i) =>
        skill({ name: `skill-${String(i).padStart(3, "0")}`, description: `Skill number ${i}.` }),
      );
      const memory = createMemoryUsageStore();
      const usage: UsageStore = blind ? { ...memory, changedSince: undefined } : memory;
      const names = (skills: typeof many) =>
        buildCatalog({ skills, usage, now, budgetTokens: 100_000 }).entries.map((e) => e.name);
      names(many);
      // A fixed pseudo-random walk: single uses (moved in place), ties on time, and bursts
      // larger than what is moved one by one (sorted again).
      let seed = 7;
      const next = () => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed;
      };
      for (let round = 0; round < 60; round++) {
        const burst = round % 10 === 9 ? 80 : 1 + (next() % 3);
        for (let i = 0; i < burst; i++) {
          usage.record(many[next() % many.length]!.name, new Date(now.getTime() + (next() % 50) * 1000));
        }
        // A copy of the list has no cached order: it is sorted from scratch.
        expect(names(many)).toEqual(names([...many]));
      }
    },
  );

  it("lists `skills` without the `exclude`d names as it lists the filtered list, after uses too", () => {
    const many = Array.from({ length: 50 }, (_, i) => skill({ name: `s-${i}`, description: `Skill ${i}.` }));
    const usage = createMemoryUsageStore();
    const catalog = (skills: typeof many, exclude?: string[]) =>
      buildCatalog({ skills, exclude, usage, now, budgetTokens: 300, candidates: ["s-3", "s-4"] });
    for (let round = 0; round < 10; round++) {
      usage.record(`s-${(round * 7) % 50}`, new Date(now.getTime() + round * 1000));
      const left = many.filter((_, i) => i % 3 === round % 3).map((s) => s.name);
      const subset = many.filter((s) => !left.includes(s.name));
      const viaExclude = catalog(many, left);
      const viaCopy = catalog(subset);
      expect(viaExclude.text).toBe(viaCopy.text);
      expect(viaExclude.omitted).toBe(viaCopy.omitted);
    }
  });

  it("applies the per-entry cap", () => {
    const long = skill({ name: "long", description: "x ".repeat(400) });
    const catalog = buildCatalog({ skills: [long], now, entryCap: 100 });
    expect(catalog.text.split("\n")[1]?.length).toBeLessThanOrEqual(102);
  });
});
