import { describe, expect, it } from "vitest";
import { exceedsYamlDepth } from "./yaml-depth.js";

describe("exceedsYamlDepth", () => {
  it("passes real frontmatter shapes", () => {
    expect(exceedsYamlDepth("name: a\nmetadata:\n  tags: [a, {b: [c]}]\nlist:\n  - - x\n")).toBe(false);
  });

  it("counts flow brackets, `- `/`? ` chains and indentation against the limit", () => {
    expect(exceedsYamlDepth(`x: ${"[".repeat(4)}`, 4)).toBe(false);
    expect(exceedsYamlDepth(`x: ${"[".repeat(5)}`, 4)).toBe(true);
    expect(exceedsYamlDepth(`x: ${"[]".repeat(100)}`, 4)).toBe(false); // closed again: depth 1
    expect(exceedsYamlDepth(`x:\n  ${"- ".repeat(5)}a`, 4)).toBe(true);
    expect(exceedsYamlDepth(`x:\n  ${"? ".repeat(5)}a`, 4)).toBe(true);
    expect(exceedsYamlDepth(`x:\n${" ".repeat(17)}a: b`, 4)).toBe(true); // more than 4 columns per level
    expect(exceedsYamlDepth(`x:\n${" ".repeat(16)}a: b`, 4)).toBe(false);
  });

  it("resets block counts at each line", () => {
    expect(exceedsYamlDepth(Array(100).fill("- - a").join("\n"), 4)).toBe(false);
  });

  it("gives the character scan's answer on any text (its quick bounds only skip texts that cannot exceed)", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pieces = ["[", "{", "]", "}", "- ", "? ", " ", "    ", "\n", "a", ": "];
    let exceeded = 0;
    for (let n = 0; n < 5000; n++) {
      let yaml = "";
      const length = 1 + Math.floor(random() * 40);
      for (let i = 0; i < length; i++) yaml += pieces[Math.floor(random() * pieces.length)];
      const expected = scanDepth(yaml, 3);
      if (expected) exceeded++;
      expect(exceedsYamlDepth(yaml, 3), JSON.stringify(yaml)).toBe(expected);
    }
    expect(exceeded).toBeGreaterThan(500);
    expect(exceeded).toBeLessThan(4500);
  });
});

/** The character scan alone, without the quick bounds. */
function scanDepth(yaml: string, limit: number): boolean {
  let flow = 0;
  let lineStart = true;
  let indent = 0;
  let indicators = 0;
  for (let i = 0; i < yaml.length; i++) {
    const c = yaml[i];
    if (c === "\n") {
      lineStart = true;
      indent = 0;
      indicators = 0;
      continue;
    }
    if (lineStart) {
      if (c === " ") {
        if (++indent > limit * 4) return true;
        continue;
      }
      if ((c === "-" || c === "?") && yaml[i + 1] === " ") {
        if (++indicators > limit) return true;
        i++;
        continue;
      }
      lineStart = false;
    }
    if (c === "[" || c === "{") {
      if (++flow > limit) return true;
    } else if ((c === "]" || c === "}") && flow > 0) {
      flow--;
    }
  }
  return false;
}
