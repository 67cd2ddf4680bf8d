import { describe, expect, it } from "vitest";
import { DEFAULT_HINTS, diagnostic, formatDiagnostic } from "./diagnostic.js";

describe("diagnostic", () => {
  it("fills in the code's default hint and line 1", () => {
    expect(
      diagnostic({
        severity: "error",
        code: "missing-description",
        message: "no description",
        file: "a/SKILL.md",
      }),
    ).toEqual({
      severity: "error",
      code: "missing-description",
      message: "no description",
      file: "a/SKILL.md",
      line: 1,
      hint: DEFAULT_HINTS["missing-description"],
    });
  });

  it("keeps a specific hint and a column, and never reports a line below 1", () => {
    const d = diagnostic({
      severity: "warning",
      code: "name-mismatch",
      message: "m",
      file: "f",
      line: 0,
      column: 3,
      hint: "h",
    });
    expect(d).toMatchObject({ line: 1, column: 3, hint: "h" });
  });

  it("gives every code a hint that says what to do", () => {
    for (const hint of Object.values(DEFAULT_HINTS)) expect(hint.length).toBeGreaterThan(20);
  });
});

describe("formatDiagnostic", () => {
  it("prints file:line[:column], severity, code, message and the hint", () => {
    const d = diagnostic({
      severity: "error",
      code: "yaml-syntax",
      message: "bad",
      file: "s/SKILL.md",
      line: 4,
      column: 7,
      hint: "fix it",
    });
    expect(formatDiagnostic(d)).toBe("s/SKILL.md:4:7 error yaml-syntax: bad\n  hint: fix it");
    expect(formatDiagnostic({ ...d, column: undefined })).toBe(
      "s/SKILL.md:4 error yaml-syntax: bad\n  hint: fix it",
    );
  });
});
