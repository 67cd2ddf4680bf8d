/**
 * The repairs real files need: block headers with their text on the same line, values that
 * start with a YAML indicator, nested duplicate keys, a stray NUL in the body, and messages
 * that say what actually went wrong.
 */
import { describe, expect, it } from "vitest";
import { parseSkill } from "./parse-skill.js";

const at = { path: "/skills/my-skill/SKILL.md" };
const md = (front: string, body = "Body.") => `---\nname: my-skill\n${front}\n---\n${body}\n`;
const codes = (result: ReturnType<typeof parseSkill>) =>
  result.diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`);

describe("lenient YAML repairs", () => {
  it("`description: | text` and `> text` on one line: read as the text, with `yaml-recovered`", () => {
    for (const header of ["|", ">", "|-", ">+", "|2"]) {
      const result = parseSkill(md(`description: ${header} Converts PDFs: fast.\nlicense: MIT`), at);
      expect(result.skill?.description, header).toBe("Converts PDFs: fast.");
      expect(result.skill?.license).toBe("MIT");
      expect(codes(result)).toEqual(["warning:yaml-recovered@3"]);
      expect(result.diagnostics[0]!.message).toContain("block header");
    }
    expect(parseSkill(md("description: | text"), { ...at, mode: "strict" }).skill).toBeUndefined();
  });

  it("a real block scalar, and a header whose text continues below, are left alone", () => {
    expect(parseSkill(md("description: |\n  Line one.\n  Line two."), at).skill?.description).toBe(
      "Line one.\nLine two.",
    );
    // The text goes on below: not a one-line value, so no guess; YAML's error stands.
    expect(codes(parseSkill(md("description: > first\n  second"), at))).toEqual(["error:yaml-syntax@3"]);
  });

  it("values starting with `@`, a backquote, `%`, or a closed `[..]`/quote YAML rejects: quoted", () => {
    const result = parseSkill(
      md(
        'description: "Agent UI." Use for chat UIs\nmodel: @scope/model\nlicense: `MIT`\ngroup: %tools\nx: [ray[data], pyarrow]',
      ),
      at,
    );
    expect(result.skill).toMatchObject({
      description: '"Agent UI." Use for chat UIs',
      model: "@scope/model",
      license: "`MIT`",
      group: "%tools",
      extra: { x: "[ray[data], pyarrow]" },
    });
    expect(codes(result)).toEqual([3, 4, 5, 6, 7].map((line) => `warning:yaml-recovered@${line}`));
  });

  it("an unclosed bracket or quote is a real typo: still a syntax error at its line", () => {
    expect(codes(parseSkill(md("description: d\ntriggers: [a, b\nlicense: MIT"), at))[0]).toMatch(
      /^error:yaml-syntax@/,
    );
    expect(parseSkill(md('description: "open\nlicense: MIT'), at).skill).toBeUndefined();
  });

  it("fails closed on the fields that limit tools: their values are never guessed", () => {
    for (const line of [
      "allowed-tools: *",
      "allowed-tools: [Read] [Bash]",
      "disallowed-tools: [Bash] [Write]",
      "tools: @all",
    ]) {
      const result = parseSkill(md(`description: d\n${line}`), at);
      expect(result.skill, line).toBeUndefined();
      expect(codes(result), line).toEqual(["error:yaml-syntax@4"]);
    }
  });
});

describe("duplicate keys inside `metadata` and `hooks`", () => {
  const text = md(
    "description: d\nmetadata:\n  version: 1.0\n  author: a\n  version: 2.0\nhooks:\n  Stop:\n    - command: a\n      command: b",
  );

  it("are reported at each ignored copy, naming the copy that is used", () => {
    const result = parseSkill(text, at);
    expect(result.skill?.metadata).toEqual({ version: "2.0", author: "a" });
    expect(result.skill?.hooks).toEqual({ Stop: [{ command: "b" }] });
    expect(codes(result)).toEqual([
      "warning:duplicate-key@5",
      "info:field-not-applied@8",
      "warning:duplicate-key@10",
    ]);
    expect(result.diagnostics[0]!.message).toBe(
      "`metadata.version` is written 2 times; only the last one (line 7) is used, this one is ignored",
    );
    expect(result.diagnostics[2]!.message).toContain("`hooks.Stop[0].command`");
  });

  it("are errors in strict mode", () => {
    const result = parseSkill(text, { ...at, mode: "strict" });
    expect(result.skill).toBeUndefined();
    expect(codes(result).filter((c) => c.startsWith("error:"))).toEqual([
      "error:duplicate-key@5",
      "error:duplicate-key@10",
    ]);
  });
});

describe("NUL characters", () => {
  const body = (lines: number, nulAt: number) =>
    Array.from({ length: lines }, (_, i) => (i + 1 === nulAt ? "| Price | R\0/mes |" : `line ${i + 1}`)).join(
      "\n",
    );

  it("one in the body: the skill loads, the NUL is reported at its line and read as U+FFFD", () => {
    const text = md("description: d", body(400, 368));
    const bytes = new TextEncoder().encode(text);
    for (const input of [text, bytes]) {
      const result = parseSkill(input, at);
      expect(result.skill?.body).toContain("| Price | R\uFFFD/mes |");
      expect(result.skill?.body).not.toContain("\0");
      // Frontmatter lines 1–4, body from line 5: body line 368 is file line 372.
      expect(codes(result)).toEqual(["warning:nul-character@372"]);
    }
    expect(codes(parseSkill(text, { ...at, mode: "strict" }))).toEqual(["error:nul-character@372"]);
  });

  it("one per line is reported; many on one line once", () => {
    const result = parseSkill(md("description: d", "a\0b\0c\nok\n\0"), at);
    expect(codes(result)).toEqual(["warning:nul-character@5", "warning:nul-character@7"]);
  });

  it("in the frontmatter, or in a file that is not text: rejected, at the NUL's line", () => {
    expect(codes(parseSkill("---\nname: a\ndescription: b\0c\n---\nBody\n", at))).toEqual([
      "error:binary-file@3",
    ]);
    expect(codes(parseSkill("-\0-\0-\0\n\0n\0", at))).toEqual(["error:binary-file@1"]);
  });
});

describe("messages", () => {
  it("`description: # …` is empty because `#` starts a YAML comment, and says so", () => {
    const result = parseSkill(md("description: # Chemistry & Drug Discovery"), at);
    expect(codes(result)).toEqual(["error:missing-description@3"]);
    expect(result.diagnostics[0]!.message).toContain("`#`");
    expect(result.diagnostics[0]!.message).toContain("comment");
    expect(result.diagnostics[0]!.hint).toBe('Quote the value: description: "# Chemistry & Drug Discovery"');
  });

  it("`description: |` with no indented text below says the block is empty", () => {
    const result = parseSkill(md("description: |\nsource: x"), at);
    expect(result.diagnostics[0]!.message).toContain("`|` block has no text");
  });

  it("a list with an item of the wrong kind says which item, not `a list, not a list`", () => {
    const result = parseSkill(md("description: d\nexamples:\n  - fine\n  - {q: nested}"), at);
    expect(result.diagnostics[0]!.message).toBe(
      "`examples` should be a list of example requests (or one), not a list whose item 2 is a mapping; it is ignored",
    );
  });
});
