/**
 * The field checks in schema.ts replaced zod schemas on the load path (for speed only).
 * The zod schemas they replaced are kept here as the reference, and every check must give
 * the same verdict and the same value on every input: each field's value in every corpus
 * frontmatter (both as written and as other fields' values) plus hand-picked corners.
 */
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { itWithSharedData } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SHARED_DATA } from "../../test/fixtures/shared-data.js";
import type { SkillMeta } from "../types.js";
import { splitFrontmatter } from "./frontmatter.js";
import { Locator, Report } from "./report.js";
import { defineOwn, FIELD_BY_KEY, splitGlobList, splitPhraseList, splitToolList } from "./schema.js";
import { readFrontmatter } from "./yaml-frontmatter.js";

// ── the zod schemas, as they were ──────────────────────────────────────────────
const scalarText = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const stringList = z
  .array(scalarText)
  .transform((items) => items.map((s) => s.trim()).filter((s) => s !== ""));
const phrases = z.union([z.string().transform(splitPhraseList), stringList]);
const sentences = z.union([z.string().transform((s) => (s.trim() === "" ? [] : [s.trim()])), stringList]);
const words = z.union([z.string().transform((s) => s.split(/\s+/).filter((s) => s !== "")), stringList]);
const tools = z.union([z.string().transform(splitToolList), stringList]);
const TRUE_WORDS = new Set(["true", "yes", "on"]);
const FALSE_WORDS = new Set(["false", "no", "off"]);
const flag = z.union([
  z.boolean(),
  z
    .string()
    .refine((s) => TRUE_WORDS.has(s.trim().toLowerCase()) || FALSE_WORDS.has(s.trim().toLowerCase()))
    .transform((s) => TRUE_WORDS.has(s.trim().toLowerCase())),
]);
const priority = z.union([
  z.number().finite(),
  z
    .string()
    .refine((s) => s.trim() !== "" && Number.isFinite(Number(s)))
    .transform(Number),
]);
function isPlainMapping(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
const metadata = z.custom<Record<string, unknown>>(isPlainMapping).transform((map) => {
  const out: Record<string, string> = {};
  for (const key of Object.keys(map)) {
    const value = map[key];
    defineOwn(
      out,
      key,
      value === null || value === undefined
        ? ""
        : typeof value === "object"
          ? JSON.stringify(value)
          : String(value),
    );
  }
  return out;
});
// Claude Code's fields, added after the switch: written here in zod the same way.
const argumentHint = z.union([scalarText, stringList.transform((items) => `[${items.join(", ")}]`)]);
const context = z
  .string()
  .refine((s) => s.trim().toLowerCase() === "fork")
  .transform(() => "fork");
const globs = z.union([z.string().transform(splitGlobList), stringList]);
const EFFORT_LEVELS = ["low", "medium", "high", "xhigh", "max"];
const effort = z
  .string()
  .refine((s) => EFFORT_LEVELS.includes(s.trim().toLowerCase()))
  .transform((s) => s.trim().toLowerCase());
const hooks = z.custom<Record<string, unknown>>(isPlainMapping);
// Seed 004's workflow fields, added after the switch, in zod the same way. (`steps` has its
// own reader with one message per problem: workflow/step-fields.test.ts pins it.)
const SECONDS = /^\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h)?\s*$/i;
const seconds = z.union([
  z.number().finite().positive(),
  z
    .string()
    .regex(SECONDS)
    .transform((s) => {
      const [, number, unit = "s"] = SECONDS.exec(s)!;
      const u = unit.toLowerCase();
      return Number(number) * (u.startsWith("h") ? 3600 : u.startsWith("m") ? 60 : 1);
    })
    .refine((n) => n > 0),
]);
const count = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .refine((s) => s.trim() !== "" && Number.isInteger(Number(s)) && Number(s) >= 0)
    .transform(Number),
]);
const ZOD: Partial<Record<keyof SkillMeta, z.ZodType>> = {
  name: scalarText,
  description: scalarText,
  license: scalarText,
  compatibility: scalarText,
  metadata,
  whenToUse: scalarText,
  triggers: phrases,
  exclusions: phrases,
  examples: sentences,
  allowedTools: tools,
  disallowedTools: tools,
  disableModelInvocation: flag,
  userInvocable: flag,
  argumentHint,
  arguments: words,
  version: scalarText,
  role: flag,
  model: scalarText,
  priority,
  group: scalarText,
  context,
  agent: scalarText,
  paths: globs,
  hooks,
  parameters: hooks,
  effort,
  domain: scalarText,
  stepTimeout: seconds,
  stepRetries: count,
};

const SPECS = [...new Set(FIELD_BY_KEY.values())].filter((spec) => spec.prop !== "steps");

function expectSameVerdict(value: unknown): void {
  const shown = typeof value === "bigint" ? `${value}n` : JSON.stringify(value);
  for (const spec of SPECS) {
    const reference = ZOD[spec.prop]!.safeParse(value);
    const ours = spec.schema.safeParse(value);
    expect(ours.success, `${spec.key} ← ${shown}`).toBe(reference.success);
    if (ours.success && reference.success) {
      expect(ours.data, `${spec.key} ← ${shown}`).toStrictEqual(reference.data);
    }
  }
}

describe("field checks = the zod schemas they replaced", () => {
  it("covers every field", () => {
    expect(SPECS.map((s) => s.prop).sort()).toEqual(Object.keys(ZOD).sort());
  });

  it("on hand-picked values", () => {
    const proto = JSON.parse('{"__proto__": {"x": 1}, "constructor": "c"}');
    for (const value of [
      "",
      "  ",
      "text",
      " Yes ",
      "off",
      "maybe",
      "10",
      " -2.5 ",
      "1e3",
      "0x10",
      "Infinity",
      "NaN",
      "a, b; c\nd",
      "/x, y/",
      "Read Grep, Bash(git log:*)",
      0,
      -0,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      true,
      false,
      null,
      undefined,
      [],
      ["a", 1, true, " ", ""],
      ["a", null],
      ["a", ["b"]],
      ["a", { b: 1 }],
      [Number.NaN],
      {},
      { a: 1, b: null, c: { d: 1 }, e: [1], f: true },
      proto,
      Object.create(null),
      new Date(0),
      10n,
    ]) {
      expectSameVerdict(value);
    }
  });

  itWithSharedData("on every value of every corpus frontmatter", () => {
    const corpus = join(SHARED_DATA, "skills-corpus");
    const files = readFileSync(join(corpus, "MANIFEST.tsv"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split("\t")[0]!)
      .filter((path) => basename(path) === "SKILL.md");
    let values = 0;
    for (const file of files) {
      const split = splitFrontmatter(readFileSync(join(corpus, file), "utf8").replace(/\r\n?/g, "\n"));
      if (split.kind !== "ok") continue;
      const report = new Report(file, "lenient");
      const frontmatter = readFrontmatter(report, split.yaml, new Locator(split.yaml, 2));
      for (const pair of frontmatter?.pairs ?? []) {
        expectSameVerdict(frontmatter!.text(pair.value, { aliases: 100 }));
        values++;
      }
    }
    expect(values).toBeGreaterThan(2000);
  });
});
