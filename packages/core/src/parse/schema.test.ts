import { describe, expect, it } from "vitest";
import { FIELD_BY_KEY, splitPhraseList, splitToolList } from "./schema.js";

const parse = (key: string, value: unknown) => FIELD_BY_KEY.get(key)!.schema.safeParse(value);

describe("splitToolList", () => {
  it.each([
    ["Read Grep Glob", ["Read", "Grep", "Glob"]],
    ["Read, WebFetch,Bash", ["Read", "WebFetch", "Bash"]],
    ["Bash(git:*) Bash(gh issue:*)  Read", ["Bash(git:*)", "Bash(gh issue:*)", "Read"]],
    ["Bash(git add, commit), Read", ["Bash(git add, commit)", "Read"]],
    ["  ", []],
    ["Read\nWrite", ["Read", "Write"]],
  ])("%j → %j", (input, expected) => {
    expect(splitToolList(input)).toEqual(expected);
  });
});

describe("splitPhraseList", () => {
  it.each([
    ["review my PR", ["review my PR"]],
    [
      "Kanban-only workflows, non-Scrum frameworks (SAFe, LeSS)",
      ["Kanban-only workflows", "non-Scrum frameworks (SAFe, LeSS)"],
    ],
    ["a; b\nc", ["a", "b", "c"]],
    ["/deploy(ing)?, to prod/", ["/deploy(ing)?, to prod/"]],
    ["/a{1,3}b/", ["/a{1,3}b/"]],
  ])("%j → %j", (input, expected) => {
    expect(splitPhraseList(input)).toEqual(expected);
  });
});

describe("field schemas", () => {
  it("coerce what is clearly meant and refuse the rest", () => {
    expect(parse("priority", "10")).toMatchObject({ success: true, data: 10 });
    expect(parse("priority", "-2.5")).toMatchObject({ success: true, data: -2.5 });
    expect(parse("priority", "CRITICAL").success).toBe(false);
    expect(parse("priority", "").success).toBe(false);
    expect(parse("role", "Yes")).toMatchObject({ success: true, data: true });
    expect(parse("user-invocable", "false")).toMatchObject({ success: true, data: false });
    expect(parse("role", "maybe").success).toBe(false);
    expect(parse("version", 2)).toMatchObject({ success: true, data: "2" });
    expect(parse("examples", "Summarise this PDF, please")).toMatchObject({
      data: ["Summarise this PDF, please"],
    });
    expect(parse("arguments", " file  mode ")).toMatchObject({ data: ["file", "mode"] });
    expect(parse("triggers", ["a", 1, true, " "])).toMatchObject({ data: ["a", "1", "true"] });
    expect(parse("metadata", ["a"]).success).toBe(false);
    expect(parse("metadata", { a: 1, b: null, c: { d: 1 } })).toMatchObject({
      data: { a: "1", b: "", c: '{"d":1}' },
    });
    expect(parse("name", { a: 1 }).success).toBe(false);
  });

  it("accept the documented, snake_case and kebab-case spellings, and `not_for`", () => {
    for (const key of [
      "allowed-tools",
      "allowed_tools",
      "when_to_use",
      "when-to-use",
      "not_for",
      "not-for",
    ]) {
      expect(FIELD_BY_KEY.has(key)).toBe(true);
    }
    expect(FIELD_BY_KEY.get("not_for")).toBe(FIELD_BY_KEY.get("exclusions"));
    expect(FIELD_BY_KEY.has("__proto__")).toBe(false);
    expect(FIELD_BY_KEY.has("constructor")).toBe(false);
  });
});
