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
});
