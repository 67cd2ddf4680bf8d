import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { quoteUnreadableValues } from "./yaml-recovery.js";

describe("quoteUnreadableValues", () => {
  it("quotes plain values containing `: ` and keeps every line in place", () => {
    const yaml = 'name: x\ndescription: Use when: the user says "hi" \\o/\nlicense: MIT';
    const repaired = quoteUnreadableValues(yaml)!;
    expect(repaired.lines).toEqual([1]);
    expect(repaired.yaml.split("\n")).toHaveLength(3);
    expect(parse(repaired.yaml)).toEqual({
      name: "x",
      description: 'Use when: the user says "hi" \\o/',
      license: "MIT",
    });
  });

  it("handles nested keys, list items and a value ending in a colon", () => {
    const repaired = quoteUnreadableValues(
      "metadata:\n  note: a: b\nitems:\n  - title: Step: one\nx: ends with:",
    )!;
    expect(repaired.lines).toEqual([1, 3, 4]);
    expect(parse(repaired.yaml)).toEqual({
      metadata: { note: "a: b" },
      items: [{ title: "Step: one" }],
      x: "ends with:",
    });
  });

  it("leaves quoted, flow, block and colon-free values alone", () => {
    expect(
      quoteUnreadableValues(
        "a: 'x: y'\nb: \"x: y\"\nc: [x]\nd: plain\ne: https://example.com\nf: Bash(git:*)",
      ),
    ).toBe(undefined);
  });

  it("never edits the inside of a block scalar", () => {
    const yaml = "description: |\n  Usage: run: now\n  more\nname: a: b";
    const repaired = quoteUnreadableValues(yaml)!;
    expect(repaired.lines).toEqual([3]);
    expect(repaired.yaml.split("\n")[1]).toBe("  Usage: run: now");
  });
});
