import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { wrapToWidth } from "./wrap.js";

const widest = (text: string) => Math.max(...text.split("\n").map((l) => [...l].length));

describe("wrapToWidth", () => {
  it("leaves a short line alone", () => {
    expect(wrapToWidth("  activated    release-notes", 80)).toBe("  activated    release-notes");
  });

  it("hangs a step's continuation under its text column", () => {
    const line = `  candidates   ${"word ".repeat(30).trim()}`;
    const wrapped = wrapToWidth(line, 80);
    expect(widest(wrapped)).toBeLessThanOrEqual(80);
    for (const next of wrapped.split("\n").slice(1)) expect(next).toMatch(/^ {15}\S/);
  });

  it("keeps a card's edge on its continuation lines", () => {
    const wrapped = wrapToWidth(`  │ why      ${"because ".repeat(20).trim()}`, 80);
    expect(widest(wrapped)).toBeLessThanOrEqual(80);
    for (const next of wrapped.split("\n").slice(1)) expect(next).toMatch(/^ {2}│ {10}\S/);
  });

  it("cuts a word longer than the line", () => {
    const wrapped = wrapToWidth(`  sandbox      /tmp/${"x".repeat(120)}`, 80);
    expect(widest(wrapped)).toBeLessThanOrEqual(80);
    expect(wrapped.replace(/\s+/g, "")).toBe(`sandbox/tmp/${"x".repeat(120)}`);
  });

  it("measures text, not colour codes", () => {
    const bold = (s: string) => `\u001b[1m${s}\u001b[22m`;
    const line = `  lead         ${bold("x".repeat(60))}`;
    expect(wrapToWidth(line, 80)).toBe(line);
  });
});

describe("wrapToWidth with wide characters", () => {
  const columns = (text: string) => Math.max(...text.split("\n").map((l) => stringWidth(l)));

  it("counts a CJK character as two columns: a Chinese request stays inside 80", () => {
    const line = `  user         ${"查询北京明天的天气并告诉我是否需要带伞".repeat(4)}`;
    const wrapped = wrapToWidth(line, 80);
    expect(columns(wrapped)).toBeLessThanOrEqual(80);
    expect(wrapped.split("\n").length).toBeGreaterThan(1);
    expect(wrapped.replace(/\s+/g, "")).toBe(line.replace(/\s+/g, ""));
    for (const next of wrapped.split("\n").slice(1)) expect(next).toMatch(/^ {15}\S/);
  });

  it("wraps mixed words by their display width", () => {
    const line = `  │ why      ${"天气 weather ".repeat(12).trim()}`;
    const wrapped = wrapToWidth(line, 80);
    expect(columns(wrapped)).toBeLessThanOrEqual(80);
  });
});
