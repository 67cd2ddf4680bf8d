import { describe, expect, it } from "vitest";
import { currentDateLine, splitArguments, substituteArguments } from "./substitute.js";

describe("splitArguments", () => {
  it("splits on whitespace and groups quotes", () => {
    expect(splitArguments("")).toEqual([]);
    expect(splitArguments("  a  b\tc ")).toEqual(["a", "b", "c"]);
    expect(splitArguments(`one "two words" 'three "q"' four`)).toEqual([
      "one",
      "two words",
      'three "q"',
      "four",
    ]);
    expect(splitArguments(`"say \\"hi\\"" ""`)).toEqual(['say "hi"', ""]);
    expect(splitArguments("unterminated 'quote here")).toEqual(["unterminated", "quote here"]);
    expect(splitArguments("中文 参数")).toEqual(["中文", "参数"]);
  });
});

describe("substituteArguments", () => {
  it("fills $ARGUMENTS, $ARGUMENTS[N] and $N (0-based)", () => {
    const body = "All: $ARGUMENTS. First: $ARGUMENTS[0]. Second: $1. Missing: [$5] [$ARGUMENTS[9]].";
    expect(substituteArguments(body, { args: 'a "b c"', positional: true })).toBe(
      'All: a "b c". First: a. Second: b c. Missing: [] [].',
    );
  });

  it("fills $name from the declared arguments, longest name first, leaving other $words alone", () => {
    const body = "Issue $issue in $issue_repo; keep $HOME and $issue-like text.";
    expect(substituteArguments(body, { args: "42 acme/web", argumentNames: ["issue", "issue_repo"] })).toBe(
      "Issue 42 in acme/web; keep $HOME and $issue-like text.",
    );
  });

  it("fills $name from a typed skill's checked values: text as written, others as JSON", () => {
    const body = "Range $time_range, top $limit, filters $filters, price $5 and $missing stay.";
    const values = { time_range: "current_month", limit: 10, filters: { tier: "gold" } };
    expect(substituteArguments(body, { args: JSON.stringify(values), values })).toBe(
      'Range current_month, top 10, filters {"tier":"gold"}, price $5 and $missing stay.',
    );
  });

  it("\\$ keeps a placeholder literal, and a backslash before other text is untouched", () => {
    const body = "Literal \\$ARGUMENTS and \\$0, real $ARGUMENTS, LaTeX \\$12.1B stays.";
    expect(substituteArguments(body, { args: "x", positional: true })).toBe(
      "Literal $ARGUMENTS and $0, real x, LaTeX \\$12.1B stays.",
    );
  });

  it("never touches prices, even in skills that take arguments", () => {
    const body = "Budget $5.00 or $50B or $3K for $0.";
    expect(substituteArguments(body, { args: "acme", positional: true })).toBe(
      "Budget $5.00 or $50B or $3K for acme.",
    );
    expect(substituteArguments("Costs $5 per seat.", { positional: false })).toBe("Costs $5 per seat.");
  });

  it("leaves $N alone when positional substitution is off (skills that take no arguments)", () => {
    expect(substituteArguments("awk '{print $1}'", {})).toBe("awk '{print $1}'");
  });

  it("appends ARGUMENTS when the body has no argument placeholder", () => {
    expect(substituteArguments("Do the thing.\n", { args: " now please " })).toBe(
      "Do the thing.\n\nARGUMENTS: now please",
    );
    expect(substituteArguments("Do the thing.", { args: "" })).toBe("Do the thing.");
    // An escaped placeholder is not a use: the arguments still reach the skill.
    expect(substituteArguments("Type \\$ARGUMENTS.", { args: "x" })).toBe("Type $ARGUMENTS.\n\nARGUMENTS: x");
  });

  it("fills the skill-folder placeholders when the folder is known", () => {
    expect(
      substituteArguments(`Run \${CLAUDE_SKILL_DIR}/scripts/x.py in \${SKILL_DIR}.`, { skillDir: "/s/pdf" }),
    ).toBe("Run /s/pdf/scripts/x.py in /s/pdf.");
    expect(substituteArguments(`Run \${SKILL_DIR}/x.`, {})).toBe(`Run \${SKILL_DIR}/x.`);
  });

  it("handles Unicode argument names and values", () => {
    expect(substituteArguments("写一篇关于$主题的文章", { args: "人工智能", argumentNames: ["主题"] })).toBe(
      "写一篇关于人工智能的文章",
    );
  });
});

describe("currentDateLine", () => {
  it("gives the date and weekday in the time zone", () => {
    const at = new Date("2026-03-01T01:00:00Z");
    expect(currentDateLine(at, "UTC")).toMatch(/^Today is Sunday, 2026-03-01 \(UTC\)\./);
    expect(currentDateLine(at, "America/Los_Angeles")).toMatch(
      /^Today is Saturday, 2026-02-28 \(America\/Los_Angeles\)\./,
    );
    expect(currentDateLine(at, "UTC")).toContain("relative dates");
  });
});
