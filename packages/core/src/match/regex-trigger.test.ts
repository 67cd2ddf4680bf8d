import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { minimumSteps, toRe2Syntax } from "./regex-trigger.js";

/** Random small patterns over the syntax triggers use: atoms, groups, alternations, repeats. */
function randomPatterns(count: number): string[] {
  const atoms = [
    "a",
    "b",
    "\\d",
    "\\w",
    ".",
    "[a-c]",
    "[^x]",
    "\\u0041",
    "\\uD83D\\uDE80",
    "\\p{L}",
    "^",
    "$",
    "\\b",
    "写",
    "🚀",
  ];
  const repeats = ["", "", "", "*", "+", "?", "{2}", "{0,3}", "{1,}", "{3,5}?", "+?"];
  let seed = 7;
  const next = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const pick = <T>(list: readonly T[]) => list[next(list.length)] as T;
  const node = (depth: number): string => {
    const kind = depth > 2 ? 0 : next(4);
    if (kind === 0) return pick(atoms) + pick(repeats);
    if (kind === 1) return `(?:${seq(depth + 1)}|${seq(depth + 1)})${pick(repeats)}`;
    if (kind === 2) return `(${seq(depth + 1)})${pick(repeats)}`;
    return seq(depth + 1);
  };
  const seq = (depth: number) => Array.from({ length: 1 + next(3) }, () => node(depth)).join("");
  return Array.from({ length: count }, () => seq(0));
}

function programSize(pattern: string): number | undefined {
  try {
    new RegExp(pattern, "iu");
  } catch {
    return undefined;
  }
  const translated = toRe2Syntax(pattern);
  if (!translated.ok) return undefined;
  try {
    return RE2JS.compile(translated.pattern, RE2JS.CASE_INSENSITIVE).programSize();
  } catch {
    return undefined;
  }
}

describe("minimumSteps", () => {
  it("never exceeds RE2's program size, so it refuses nothing RE2 would accept", () => {
    const patterns = [
      "deploy (to|on) prod",
      "abc|abd|abe",
      "(?:a|a|a){5}",
      "(?:a*){5}",
      "x{0}y",
      "(?:ab|ac)+",
      "\\b(?:deploy|ship|release)\\b.{0,10}\\bprod(?:uction)?\\b",
      "(?<year>\\d{4})-\\d{2}",
      "(?i:abc)",
      ...randomPatterns(4_000),
    ];
    let checked = 0;
    for (const pattern of patterns) {
      const size = programSize(pattern);
      if (size === undefined) continue;
      checked++;
      expect(minimumSteps(pattern), pattern).toBeLessThanOrEqual(size);
    }
    expect(checked).toBeGreaterThan(500);
  });

  it("counts the copies bounded repeats make, nested ones multiplied", () => {
    expect(minimumSteps("a{1,999}a{1,999}b")).toBe(1_999);
    expect(minimumSteps("(?:(?:ab){10}){10}")).toBe(200);
    expect(minimumSteps("(?:abc|x)*")).toBe(3);
  });
});
