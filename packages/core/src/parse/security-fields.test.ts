/**
 * Attack-style tests: a security field the parser cannot read exactly (a malformed
 * `allowed-tools`, a misspelled key, `disable-model-invocation: 1`) must never leave the
 * skill unrestricted. It loads maximally restricted (no tools; only the user can run it)
 * with an error a human sees, in lenient mode too, and both YAML paths agree on it.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ParseMode, ParseResult } from "../types.js";
import { parseSkillWith } from "./parse-skill.js";
import { readSkillFile } from "./read-skill-file.js";

const PATH = "/skills/guarded/SKILL.md";
const file = (fields: string) =>
  `---\nname: guarded\ndescription: A guarded skill.\n${fields}\n---\n# Body\n`;

/** Both YAML paths, compared, and the result of the fast one. */
function parse(fields: string, mode: ParseMode = "lenient"): ParseResult {
  const fast = parseSkillWith(file(fields), { path: PATH, mode }, true);
  const full = parseSkillWith(file(fields), { path: PATH, mode }, false);
  expect(fast, `fast path = full path for ${JSON.stringify(fields)}`).toStrictEqual(full);
  return fast;
}

const errorsOf = (result: ParseResult) =>
  result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code}@${d.line}`);

describe("a malformed allowed-tools or disallowed-tools loads the skill with no tools", () => {
  const malformed: Record<string, string> = {
    mapping: "allowed-tools: {Read: true, Bash: true}",
    "block mapping": "allowed-tools:\n  Read: true",
    "list with a mapping": "allowed-tools: [Read, {Bash: git}]",
    "nested list": "allowed-tools: [[Read, Bash]]",
    "list with an empty item": "allowed-tools:\n  - Read\n  -\n  - Bash",
    false: "allowed-tools: false",
    true: "allowed-tools: true",
    "no value": "allowed-tools:",
    null: "allowed-tools: null",
    tilde: "allowed-tools: ~",
    "disallowed-tools as a mapping": "disallowed-tools: {Bash: true}",
    "disallowed-tools: false": "disallowed-tools: false",
    "disallowed-tools with no value": "disallowed-tools:",
    "disallowed-tools with a nested list": "disallowed-tools: [[Bash]]",
  };
  it.each(Object.entries(malformed))("%s", (_name, fields) => {
    const result = parse(fields);
    expect(result.skill?.allowedTools).toEqual([]);
    expect(errorsOf(result)).toEqual(["invalid-security-field@4"]);
    const error = result.diagnostics.find((d) => d.code === "invalid-security-field")!;
    expect(error.hint).toMatch(/allowed-tools|disallowed-tools/);
    expect(error.message).toMatch(/no tools/);
  });

  it("strict mode skips the skill instead", () => {
    const result = parse("allowed-tools: {Read: true}", "strict");
    expect(result.skill).toBeUndefined();
    expect(errorsOf(result)).toEqual(["invalid-security-field@4"]);
  });

  it("the documented forms are unchanged", () => {
    expect(parse("allowed-tools: []").skill?.allowedTools).toEqual([]);
    expect(parse("allowed-tools: ''").skill?.allowedTools).toEqual([]);
    expect(parse("allowed-tools: Read Grep").skill?.allowedTools).toEqual(["Read", "Grep"]);
    expect(parse("allowed-tools: [Read, 'Bash(git:*)']").skill?.allowedTools).toEqual([
      "Read",
      "Bash(git:*)",
    ]);
    expect(parse("allowed_tools: Read").skill?.allowedTools).toEqual(["Read"]);
    // A number is text like any other: a whitelist of the one tool named "5".
    expect(parse("allowed-tools: 5").skill?.allowedTools).toEqual(["5"]);
    expect(parse("disallowed-tools: Bash").skill).toMatchObject({ disallowedTools: ["Bash"] });
    expect(parse("disallowed-tools: Bash").skill?.allowedTools).toBeUndefined();
    for (const fields of ["allowed-tools: []", "allowed_tools: Read", "disallowed-tools: Bash"]) {
      expect(parse(fields).diagnostics).toEqual([]);
    }
    // A case variant is still read as the field (and enforced), with its key-case warning.
    const variant = parse("Allowed-Tools: Read");
    expect(variant.skill?.allowedTools).toEqual(["Read"]);
    expect(variant.diagnostics.map((d) => `${d.code} ${d.severity}`)).toEqual(["key-case warning"]);
  });
});

describe("a misspelled security key loads the skill maximally restricted", () => {
  const misspelled: Array<[key: string, meant: string]> = [
    ["allowed_tool", "allowed-tools"],
    ["allowed-tool", "allowed-tools"],
    ["allowedTools", "allowed-tools"],
    ["AllowedTools", "allowed-tools"],
    ["allowedtools", "allowed-tools"],
    ["alowed-tools", "allowed-tools"],
    ["allowed tools", "allowed-tools"],
    ["tools", "allowed-tools"],
    ["disallowed_tool", "disallowed-tools"],
    ["disallowedTools", "disallowed-tools"],
    ["disallowed-tool", "disallowed-tools"],
  ];
  it.each(misspelled)("%s (meant %s)", (key, meant) => {
    const result = parse(`${key}: Read`);
    expect(result.skill?.allowedTools).toEqual([]);
    expect(errorsOf(result)).toEqual(["misspelled-security-field@4"]);
    const error = result.diagnostics.find((d) => d.code === "misspelled-security-field")!;
    expect(error.message).toContain(`\`${key}\``);
    expect(error.hint).toContain(`\`${meant}\``);
  });

  it.each([
    "disableModelInvocation",
    "disable_model_invocations",
    "disable-model-invokation",
    "DisableModelInvocation",
  ])("%s: counts as disable-model-invocation: true", (key) => {
    for (const value of ["true", "false"]) {
      const result = parse(`${key}: ${value}`);
      expect(result.skill?.disableModelInvocation).toBe(true);
      expect(result.skill?.allowedTools).toBeUndefined();
      expect(errorsOf(result)).toEqual(["misspelled-security-field@4"]);
      expect(result.diagnostics[0]!.hint).toContain("`disable-model-invocation`");
    }
  });

  it("with the right key beside it, still restricted", () => {
    const result = parse("allowed-tools: Read Bash\ntools: Read");
    expect(result.skill?.allowedTools).toEqual([]);
    expect(errorsOf(result)).toEqual(["misspelled-security-field@5"]);
  });

  it("the misspelled key is still kept in extra, and unrelated keys are untouched", () => {
    expect(parse("allowedTools: Read").skill?.extra).toEqual({ allowedTools: "Read" });
    for (const key of [
      "allowed-hosts",
      "allowed-roles",
      "tooling",
      "author",
      "disallowed-words",
      "model-version",
    ]) {
      const result = parse(`${key}: x`);
      expect(result.skill?.allowedTools, key).toBeUndefined();
      expect(result.skill?.disableModelInvocation, key).toBe(false);
      expect(result.diagnostics, key).toEqual([]);
    }
  });
});

describe("a malformed disable-model-invocation counts as true", () => {
  it.each(["1", "0", "y", "n", "'yes please'", "[true]", "{a: 1}", "", "~", "2026-01-01"])("%s", (value) => {
    const result = parse(`disable-model-invocation: ${value}`);
    expect(result.skill?.disableModelInvocation).toBe(true);
    expect(errorsOf(result)).toEqual(["invalid-security-field@4"]);
    expect(result.diagnostics[0]!.hint).toContain("disable-model-invocation: true");
  });

  it("true/false and their word forms are read as before, silently", () => {
    for (const [value, expected] of [
      ["true", true],
      ["'yes'", true],
      ["on", true],
      ["false", false],
      ["no", false],
      ["'off'", false],
    ] as const) {
      const result = parse(`disable-model-invocation: ${value}`);
      expect(result.skill?.disableModelInvocation, value).toBe(expected);
      expect(result.diagnostics, value).toEqual([]);
    }
  });
});

describe("from a real file on disk", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillshelf-security-fields-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("allowedTools: Read Write loads with no tools and a located error with a hint", async () => {
    await mkdir(join(dir, "guarded"));
    const path = join(dir, "guarded", "SKILL.md");
    await writeFile(path, file("license: MIT\nallowedTools: Read Write"));
    const result = await readSkillFile(path);
    expect(result.skill?.allowedTools).toEqual([]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "misspelled-security-field",
        file: path,
        line: 5,
        hint: "Rename `allowedTools` to `allowed-tools`.",
      }),
    ]);
  });
});
