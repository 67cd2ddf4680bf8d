import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Diagnostic, ParseOptions } from "../types.js";
import { parseSkill } from "./parse-skill.js";

const md = (frontmatter: string, body = "# Title\n\nDo the thing.\n") =>
  `---\n${frontmatter}\n---\n\n${body}`;
const at = { path: "/skills/my-skill/SKILL.md" } satisfies ParseOptions;
const strict = { ...at, mode: "strict" } satisfies ParseOptions;
/** `code@line severity`: compact, and a failing assertion shows everything at once. */
const codes = (diagnostics: Diagnostic[]) => diagnostics.map((d) => `${d.code}@${d.line} ${d.severity}`);

describe("parseSkill: the common case", () => {
  it("normalises the frontmatter, keeps the body and hashes the bytes", () => {
    const text = md(
      "name: my-skill\ndescription: Extract text from PDF files.\nallowed-tools: Read Bash(gh issue:*)",
    );
    const { skill, diagnostics } = parseSkill(text, at);
    expect(diagnostics).toEqual([]);
    expect(skill).toEqual({
      name: "my-skill",
      description: "Extract text from PDF files.",
      triggers: [],
      exclusions: [],
      examples: [],
      allowedTools: ["Read", "Bash(gh issue:*)"],
      disallowedTools: [],
      disableModelInvocation: false,
      userInvocable: true,
      arguments: [],
      role: false,
      priority: 0,
      extra: {},
      body: "# Title\n\nDo the thing.",
      bodyLine: 7,
      file: "/skills/my-skill/SKILL.md",
      hash: createHash("sha256").update(text).digest("hex"),
    });
  });

  it("maps every field, in its kebab-case, snake_case and alias spellings, to one shape", () => {
    const { skill, diagnostics } = parseSkill(
      md(
        [
          "name: my-skill",
          "description: >-",
          "  Review pull requests",
          "  for style.",
          "license: MIT",
          "compatibility: Requires git",
          "metadata: {author: Ann, version: 1.0, reviewed: 2026-02-06, tags: [a, b], empty: }",
          "when_to_use: When a PR is open",
          "triggers: review my PR",
          "not_for: [drafts, 'merge conflicts, rebases']",
          "examples:",
          "  - review PR 12",
          "allowed_tools: [Read, 'Bash(git diff:*)']",
          "disallowed-tools: Write, Edit",
          "disable_model_invocation: true",
          "user-invocable: 'false'",
          "argument-hint: '[pr-number]'",
          "arguments: pr branch",
          "version: 1.10",
          "role: yes",
          "model: gpt-5",
          "priority: '3'",
          "group: review",
          "x-team: platform",
        ].join("\n"),
      ),
      at,
    );
    expect(diagnostics).toEqual([]);
    expect(skill).toMatchObject({
      name: "my-skill",
      description: "Review pull requests for style.",
      license: "MIT",
      compatibility: "Requires git",
      metadata: { author: "Ann", version: "1.0", reviewed: "2026-02-06", tags: '["a","b"]', empty: "" },
      whenToUse: "When a PR is open",
      triggers: ["review my PR"],
      exclusions: ["drafts", "merge conflicts, rebases"],
      examples: ["review PR 12"],
      allowedTools: ["Read", "Bash(git diff:*)"],
      disallowedTools: ["Write", "Edit"],
      disableModelInvocation: true,
      userInvocable: false,
      argumentHint: "[pr-number]",
      arguments: ["pr", "branch"],
      version: "1.10",
      role: true,
      model: "gpt-5",
      priority: 3,
      group: "review",
      extra: { "x-team": "platform" },
    });
  });

  it("reports unknown keys in strict mode only, and keeps them verbatim", () => {
    const text = md("name: my-skill\ndescription: d\ntier: 2\nnested: {a: [1, true]}");
    expect(parseSkill(text, at)).toMatchObject({
      diagnostics: [],
      skill: { extra: { tier: 2, nested: { a: [1, true] } } },
    });
    expect(codes(parseSkill(text, strict).diagnostics)).toEqual([
      "unknown-field@4 error",
      "unknown-field@5 error",
    ]);
  });

  it("treats `key:` with no value as not set, except a security field, which fails closed", () => {
    const { skill, diagnostics } = parseSkill(
      md("name: my-skill\ndescription: d\nallowed-tools:\nversion:"),
      at,
    );
    expect(skill?.version).toBeUndefined();
    // An empty whitelist line is not "no whitelist": the skill gets no tools, and an error says why.
    expect(skill?.allowedTools).toEqual([]);
    expect(codes(diagnostics)).toEqual(["invalid-security-field@4 error"]);
  });

  it("reads `allowed-tools: ''` as an empty whitelist (no tools), not as no whitelist", () => {
    expect(
      parseSkill(md("name: my-skill\ndescription: d\nallowed-tools: ''"), at).skill?.allowedTools,
    ).toEqual([]);
  });
});

describe("parseSkill: bad input never crashes", () => {
  it("CRLF line endings: parsed as LF, same line numbers, hash of the original bytes", () => {
    const text = "---\r\nname: my-skill\r\ndescription: d\r\nx: [\r\n---\r\n\r\nBody\r\nline 2\r\n";
    const { diagnostics } = parseSkill(text, at);
    expect(codes(diagnostics)).toEqual(["yaml-syntax@5 error"]);
    const ok = "---\r\nname: my-skill\r\ndescription: d\r\n---\r\n\r\nBody\r\nline 2\r\n";
    const { skill } = parseSkill(ok, at);
    expect(skill).toMatchObject({ body: "Body\nline 2", bodyLine: 6 });
    expect(skill?.hash).toBe(createHash("sha256").update(ok).digest("hex"));
  });

  it("BOM: ignored for parsing, kept in the hash", () => {
    const bytes = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode(md("name: my-skill\ndescription: d")),
    ]);
    const { skill, diagnostics } = parseSkill(bytes, at);
    expect(diagnostics).toEqual([]);
    expect(skill?.name).toBe("my-skill");
    expect(skill?.hash).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(parseSkill(`\uFEFF${md("name: my-skill\ndescription: d")}`, at).skill?.name).toBe("my-skill");
  });

  it("no frontmatter: skipped with `no-frontmatter`, even when a `---` rule comes later", () => {
    const result = parseSkill("# My skill\n\n---\n\nname: my-skill\n", at);
    expect(result.skill).toBeUndefined();
    expect(result.diagnostics).toMatchObject([{ code: "no-frontmatter", line: 1, severity: "error" }]);
    const pushedDown = parseSkill(`\n\n${md("name: my-skill\ndescription: d")}`, at).diagnostics[0];
    expect(pushedDown).toMatchObject({ code: "no-frontmatter", hint: expect.stringMatching(/blank lines/) });
  });

  it("unclosed frontmatter: skipped with `unclosed-frontmatter`", () => {
    for (const text of ["---\nname: my-skill\ndescription: d\n", "---", "---\n"]) {
      expect(codes(parseSkill(text, at).diagnostics)).toEqual(["unclosed-frontmatter@1 error"]);
    }
  });

  it("invalid YAML: skipped with `yaml-syntax` at the line and column of the problem", () => {
    const { skill, diagnostics } = parseSkill(
      md("name: my-skill\ndescription: d\ntriggers: [a, b\nrole: true"),
      at,
    );
    expect(skill).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: "yaml-syntax", severity: "error", file: at.path });
    expect(diagnostics[0]!.line).toBeGreaterThanOrEqual(4);
    expect(diagnostics[0]!.column).toBeGreaterThanOrEqual(1);
  });

  it("unquoted `: ` in a value: lenient retries with it quoted (`yaml-recovered`), strict refuses", () => {
    const text = md("name: my-skill\ndescription: Use when: the user asks. Note: slow\nlicense: MIT");
    const lenient = parseSkill(text, at);
    expect(lenient.skill?.description).toBe("Use when: the user asks. Note: slow");
    expect(lenient.skill?.license).toBe("MIT");
    expect(codes(lenient.diagnostics)).toEqual(["yaml-recovered@3 warning"]);
    expect(codes(parseSkill(text, strict).diagnostics)).toEqual(["yaml-syntax@3 error"]);
  });

  it("frontmatter that is a list or a scalar: skipped with `frontmatter-not-mapping`", () => {
    expect(codes(parseSkill(md("- name\n- description"), at).diagnostics)).toEqual([
      "frontmatter-not-mapping@2 error",
    ]);
    expect(codes(parseSkill(md("just some text"), at).diagnostics)).toEqual([
      "frontmatter-not-mapping@2 error",
    ]);
  });

  it("empty frontmatter: skipped with `missing-description`", () => {
    const expected = ["missing-description@1 error", "missing-name@1 warning"];
    expect(codes(parseSkill("---\n---\nbody", at).diagnostics)).toEqual(expected);
    expect(codes(parseSkill(md("# only a comment"), at).diagnostics)).toEqual(expected);
  });

  it("keys differing only in case: `duplicate-key` at the variant, the lower-case key wins either way round", () => {
    const nameFirst = parseSkill(md("name: my-skill\nName: Other Name\ndescription: d"), at);
    const variantFirst = parseSkill(md("Name: Other Name\nname: my-skill\ndescription: d"), at);
    expect(nameFirst.skill?.name).toBe("my-skill");
    expect(variantFirst.skill?.name).toBe("my-skill");
    expect(codes(nameFirst.diagnostics)).toEqual(["duplicate-key@3 warning"]);
    expect(codes(variantFirst.diagnostics)).toEqual(["duplicate-key@2 warning"]);
    expect(variantFirst.diagnostics[0]!.message).toBe(
      "`Name` repeats `name` (line 3); the one on line 3 is used",
    );
    expect(
      codes(parseSkill(md("Name: Other Name\nname: my-skill\ndescription: d"), strict).diagnostics),
    ).toEqual(["duplicate-key@2 error"]);
  });

  it("the same key twice: the first one wins, deterministically", () => {
    const result = parseSkill(md("name: my-skill\ndescription: first\ndescription: second"), at);
    expect(result.skill?.description).toBe("first");
    expect(codes(result.diagnostics)).toEqual(["duplicate-key@4 warning"]);
  });

  it("unknown keys differing only in case: both kept in `extra`, with `duplicate-key`", () => {
    const result = parseSkill(
      md("name: my-skill\ndescription: d\nAuthor: Ann\nauthor: Bob\nauthor: Carl"),
      at,
    );
    expect(result.skill?.extra).toEqual({ Author: "Ann", author: "Bob" });
    expect(codes(result.diagnostics)).toEqual(["duplicate-key@5 warning", "duplicate-key@6 warning"]);
    expect(result.diagnostics[0]!.message).toMatch(/both are kept/);
    expect(result.diagnostics[1]!.message).toBe(
      "`author` repeats `author` (line 5); the one on line 5 is used",
    );
  });

  it("a known key in the wrong case alone is used, with `key-case`", () => {
    const result = parseSkill(md("Name: my-skill\nDescription: d"), at);
    expect(result.skill).toMatchObject({ name: "my-skill", description: "d" });
    expect(codes(result.diagnostics)).toEqual(["key-case@2 warning", "key-case@3 warning"]);
    expect(parseSkill(md("Name: my-skill\nDescription: d"), strict).skill).toBeUndefined();
  });

  it("YAML dates and numbers where strings are expected: kept as written", () => {
    const { skill, diagnostics } = parseSkill(
      md(
        "name: 2024\ndescription: 2024-01-01\nversion: 2.0\nlicense: 1e3\nmetadata:\n  updated: 2026-02-06\n  ratio: 0.50",
      ),
      { ...at, folderName: "2024" },
    );
    expect(diagnostics).toEqual([]);
    expect(skill).toMatchObject({
      name: "2024",
      description: "2024-01-01",
      version: "2.0",
      license: "1e3",
      metadata: { updated: "2026-02-06", ratio: "0.50" },
    });
  });

  it("a value of the wrong type: lenient ignores that field with `invalid-field`, strict errs", () => {
    const text = md("name: my-skill\ndescription: d\npriority: CRITICAL\ntriggers: {a: b}\nrole: maybe");
    const lenient = parseSkill(text, at);
    expect(lenient.skill).toMatchObject({ priority: 0, triggers: [], role: false });
    expect(codes(lenient.diagnostics)).toEqual([
      "invalid-field@4 warning",
      "invalid-field@5 warning",
      "invalid-field@6 warning",
    ]);
    expect(lenient.diagnostics[0]!.message).toBe(
      '`priority` should be a number, not the text "CRITICAL"; it is ignored',
    );
    expect(parseSkill(text, strict).skill).toBeUndefined();
  });

  it("a description that is not text: skipped with `invalid-field`", () => {
    const result = parseSkill(md("name: my-skill\ndescription: [a, b]"), at);
    expect(result.skill).toBeUndefined();
    expect(codes(result.diagnostics)).toEqual(["invalid-field@3 error"]);
  });

  it("allowed-tools as a space-separated string, a comma-separated string, and a list", () => {
    const tools = (value: string) =>
      parseSkill(md(`name: my-skill\ndescription: d\nallowed-tools: ${value}`), at).skill;
    expect(tools("Read Grep  Bash(git log:*)")?.allowedTools).toEqual(["Read", "Grep", "Bash(git log:*)"]);
    expect(tools("Read, WebFetch,Bash")?.allowedTools).toEqual(["Read", "WebFetch", "Bash"]);
    expect(tools("[Read, 'Bash(npm run test:*)', 42]")?.allowedTools).toEqual([
      "Read",
      "Bash(npm run test:*)",
      "42",
    ]);
    expect(tools("\n  - Read\n  - mcp__github__*")?.allowedTools).toEqual(["Read", "mcp__github__*"]);
  });

  it("a description over 1,024 characters: loaded with a warning; an error in strict mode", () => {
    const text = md(`name: my-skill\ndescription: ${"x".repeat(1025)}`);
    const lenient = parseSkill(text, at);
    expect(lenient.skill?.description).toHaveLength(1025);
    expect(codes(lenient.diagnostics)).toEqual(["description-too-long@3 warning"]);
    expect(codes(parseSkill(text, strict).diagnostics)).toEqual(["description-too-long@3 error"]);
    // counted in characters, not UTF-16 units: 1,024 emoji are within the limit
    expect(parseSkill(md(`name: my-skill\ndescription: ${"🔄".repeat(1024)}`), strict).diagnostics).toEqual(
      [],
    );
  });

  it("`<` or `>` in the description: fine when lenient, `description-angle-brackets` when strict", () => {
    const text = md("name: my-skill\ndescription: 'Maps IRecipient<T> messages: Epic > Story'");
    expect(parseSkill(text, at).diagnostics).toEqual([]);
    expect(codes(parseSkill(text, strict).diagnostics)).toEqual(["description-angle-brackets@3 error"]);
  });

  it("upper-case, spaced and Unicode names", () => {
    const name = (value: string, folderName: string) =>
      codes(parseSkill(md(`name: ${value}\ndescription: d`), { ...at, folderName }).diagnostics);
    expect(name("MySkill", "MySkill")).toEqual(["invalid-name@2 warning"]);
    expect(name('"PDF Tools"', "PDF Tools")).toEqual(["invalid-name@2 warning", "invalid-name@2 warning"]);
    expect(name("技能", "技能")).toEqual([]);
    expect(name("мой-навык", "мой-навык")).toEqual([]);
    expect(name("НАВЫК", "НАВЫК")).toEqual(["invalid-name@2 warning"]);
    const hint = parseSkill(md("name: PDF Tools\ndescription: d"), { ...at, folderName: false })
      .diagnostics[0]!.hint;
    expect(hint).toContain("`name: pdf-tools`");
  });

  it("name ≠ folder: loaded with `name-mismatch`; an error in strict mode; `folderName: false` skips it", () => {
    const text = md("name: other-name\ndescription: d");
    expect(codes(parseSkill(text, at).diagnostics)).toEqual(["name-mismatch@2 warning"]);
    expect(codes(parseSkill(text, strict).diagnostics)).toEqual(["name-mismatch@2 error"]);
    expect(parseSkill(text, { ...at, folderName: false }).diagnostics).toEqual([]);
    expect(parseSkill(text, { ...at, folderName: "other-name" }).diagnostics).toEqual([]);
  });

  it("a name-mismatch hint never suggests a name that breaks the rules", () => {
    const hint = (name: string, folderName: string) =>
      parseSkill(md(`name: ${name}\ndescription: d`), { ...at, folderName }).diagnostics.find(
        (d) => d.code === "name-mismatch",
      )!.hint;
    expect(hint("pdf-tools", "pdf")).toBe('Rename the folder to "pdf-tools", or set `name: pdf`.');
    expect(hint("PDF Tools", "pdf-tools")).toBe("Set `name: pdf-tools` to match its folder.");
    expect(hint("pdf-tools", "PDF Tools")).toBe('Rename the folder to "pdf-tools".');
    expect(hint("PDF Tools", "PDF")).toBe(
      'Use one valid name for both the folder and `name`, e.g. "pdf-tools".',
    );
  });

  it("missing name: lenient uses the folder name with a warning; strict (or no folder) skips", () => {
    const text = md("description: d");
    const lenient = parseSkill(text, at);
    expect(lenient.skill?.name).toBe("my-skill");
    expect(lenient.diagnostics).toMatchObject([
      {
        code: "missing-name",
        severity: "warning",
        line: 1,
        hint: "Add `name: my-skill` to the frontmatter.",
      },
    ]);
    expect(codes(parseSkill(text, strict).diagnostics)).toEqual(["missing-name@1 error"]);
    expect(codes(parseSkill(text, { folderName: false }).diagnostics)).toEqual(["missing-name@1 error"]);
  });

  it("a YAML alias bomb (billion laughs): refused quickly, nothing expanded", () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(",")}]`);
    }
    for (const target of ["extra", "triggers"]) {
      const bomb = md(`name: my-skill\ndescription: d\n${levels.join("\n")}\n${target}: *i`);
      const { skill, diagnostics } = parseSkill(bomb, at);
      expect(skill).toBeUndefined();
      expect(diagnostics.some((d) => d.code === "yaml-syntax" && d.hint.includes("aliases"))).toBe(true);
    }
  });

  it("`__proto__` and `constructor` keys: kept as plain keys, no prototype polluted", () => {
    const text = md(
      [
        "name: my-skill",
        "description: d",
        "__proto__: {polluted: yes}",
        "constructor: {prototype: {polluted: yes}}",
        "metadata:",
        "  __proto__: polluted",
        "  constructor: also",
        "x:",
        "  __proto__: {polluted: yes}",
      ].join("\n"),
    );
    const { skill } = parseSkill(text, strict);
    const { skill: lenientSkill } = parseSkill(text, at);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(lenientSkill!.extra)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(lenientSkill!.metadata)).toBe(Object.prototype);
    expect(Object.keys(lenientSkill!.extra)).toEqual(["__proto__", "constructor", "x"]);
    expect(Object.getOwnPropertyDescriptor(lenientSkill!.extra, "__proto__")?.value).toEqual({
      polluted: "yes",
    });
    expect(Object.getOwnPropertyDescriptor(lenientSkill!.metadata, "__proto__")?.value).toBe("polluted");
    expect((lenientSkill!.extra as { polluted?: unknown }).polluted).toBeUndefined();
    const x = (lenientSkill!.extra as { x: object }).x;
    expect(Object.getPrototypeOf(x)).toBe(Object.prototype);
    expect(skill).toBeUndefined(); // strict: unknown fields
  });

  it("binary garbage: skipped with `binary-file`", () => {
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 256);
    expect(codes(parseSkill(garbage, at).diagnostics)).toEqual(["binary-file@1 error"]);
    expect(
      codes(parseSkill(new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]), at).diagnostics),
    ).toEqual(["binary-file@1 error"]);
    // A NUL in the frontmatter is reported on its own line.
    expect(codes(parseSkill("---\nname: a\0b\n---\n", at).diagnostics)).toEqual(["binary-file@2 error"]);
  });

  it("empty file: skipped with `empty-file`", () => {
    for (const input of ["", "  \n\n\t\n", new Uint8Array(0), "\uFEFF"]) {
      expect(codes(parseSkill(input, at).diagnostics)).toEqual(["empty-file@1 error"]);
    }
  });

  it("pathologically nested YAML: refused by a pre-scan, never parsed into a stack overflow", () => {
    // All under the 64 KiB frontmatter cap, all far deeper than the 256-level limit.
    const shapes = [
      `x: ${"[".repeat(20_000)}${"]".repeat(20_000)}`,
      `x: ${"{a: ".repeat(12_000)}${"}".repeat(12_000)}`,
      `x:\n  ${"- ".repeat(30_000)}a`,
    ];
    for (const shape of shapes) {
      const result = parseSkill(md(`name: my-skill\ndescription: d\n${shape}`), at);
      expect(result.diagnostics).toMatchObject([
        { code: "yaml-syntax", line: 2, message: expect.stringMatching(/nests/) },
      ]);
    }
    // Nesting a little deeper than real files do is still parsed.
    const fine = parseSkill(
      md(`name: my-skill\ndescription: d\nx: ${"[".repeat(100)}${"]".repeat(100)}`),
      at,
    );
    expect(fine.diagnostics).toEqual([]);
  });

  it("a frontmatter over 64 KiB: refused with `frontmatter-too-large` before YAML sees it", () => {
    const keys = Array.from({ length: 9000 }, (_, i) => `k${i}: v`).join("\n");
    const result = parseSkill(md(`name: my-skill\ndescription: d\n${keys}`), at);
    expect(codes(result.diagnostics)).toEqual(["frontmatter-too-large@1 error"]);
    expect(result.diagnostics[0]!.hint).toMatch(/body/);
  });

  it("one mistake repeated thousands of times: 20 diagnostics, then one that counts the rest", () => {
    const repeated = Array.from({ length: 1000 }, () => "name: my-skill").join("\n");
    const { skill, diagnostics } = parseSkill(md(`${repeated}\ndescription: d`), at);
    expect(skill?.name).toBe("my-skill");
    expect(diagnostics).toHaveLength(21);
    expect(diagnostics.filter((d) => d.code === "duplicate-key")).toHaveLength(21);
    expect(diagnostics.at(-1)).toMatchObject({
      code: "duplicate-key",
      severity: "warning",
      line: 23,
      message: "979 more `duplicate-key` problems from here on, not listed",
    });
  });

  it("compatibility over 500 characters: `compatibility-too-long`", () => {
    const text = md(`name: my-skill\ndescription: d\ncompatibility: ${"y".repeat(501)}`);
    expect(codes(parseSkill(text, at).diagnostics)).toEqual(["compatibility-too-long@4 warning"]);
    expect(codes(parseSkill(text, strict).diagnostics)).toEqual(["compatibility-too-long@4 error"]);
  });

  it("a body over 500 lines: a strict-mode warning only", () => {
    const text = md("name: my-skill\ndescription: d", "line\n".repeat(501));
    expect(parseSkill(text, at).diagnostics).toEqual([]);
    const result = parseSkill(text, strict);
    expect(codes(result.diagnostics)).toEqual(["body-too-long@6 warning"]);
    expect(result.skill).toBeDefined();
  });

  it("strict mode reports every problem in one run", () => {
    const text = md("name: Bad_Name\nunknown: 1");
    expect(codes(parseSkill(text, strict).diagnostics)).toEqual([
      "missing-description@1 error",
      "invalid-name@2 error",
      "invalid-name@2 error",
      "name-mismatch@2 error",
      "unknown-field@3 error",
    ]);
  });

  it("every diagnostic has a hint", () => {
    const text = md("Name: X\nname: Bad_Name\ndescription: <x>\npriority: high\nfoo: 1");
    for (const d of parseSkill(text, strict).diagnostics) expect(d.hint.length).toBeGreaterThan(10);
  });
});

describe("parseSkill: bytes and text give the same result", () => {
  it("with CRLF, lone CR, NUL characters (body and frontmatter) and non-ASCII text", () => {
    const cases = [
      md("name: my-skill\ndescription: d").replaceAll("\n", "\r\n"),
      md("name: my-skill\ndescription: d").replaceAll("\n", "\r"),
      md("name: my-skill\ndescription: d", "# Title\n\nA NUL \0 here.\r\nAnd \0 there — ünïcödé.\n"),
      md("name: my-skill\ndescription: d\0"),
      md("name: my-skill\ndescription: Prüft — 検査\r\n", "Körper\r\n"),
      md("name: my-skill\ndescription: d", "No returns, no NULs: ordinary text.\n"),
    ];
    for (const text of cases) {
      const options = { path: "/skills/my-skill/SKILL.md" };
      expect(parseSkill(new TextEncoder().encode(text), options)).toEqual(parseSkill(text, options));
    }
  });
});
