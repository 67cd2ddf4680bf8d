import { describe, expect, it } from "vitest";
import { checkName, codePointLength, normalizeName, suggestName } from "./name-rules.js";

const codes = (name: string) => checkName(normalizeName(name)).map((p) => p.code);

describe("checkName (the reference validator's rules)", () => {
  it.each([
    ["pdf-tools", []],
    ["a", []],
    ["v2", []],
    ["技能", []],
    ["мой-навык", []],
    ["café", []],
    ["cafe\u0301", []], // decomposed é: NFKC makes it valid and equal to "café"
    ["ｐｄｆ", []], // full-width letters: NFKC folds them to ASCII
    ["PDF-tools", ["invalid-name"]],
    ["НАВЫК", ["invalid-name"]],
    ["-pdf", ["invalid-name"]],
    ["pdf-", ["invalid-name"]],
    ["pdf--tools", ["invalid-name"]],
    ["pdf_tools", ["invalid-name"]],
    ["pdf tools", ["invalid-name"]],
    ["a/b", ["invalid-name"]],
    ["PDF Tools", ["invalid-name", "invalid-name"]],
    ["a".repeat(64), []],
    ["a".repeat(65), ["name-too-long"]],
    ["", ["invalid-name"]],
  ])("%j → %j", (name, expected) => {
    expect(codes(name)).toEqual(expected);
  });

  it("counts characters, not UTF-16 units", () => {
    // U+10428 DESERET SMALL LETTER LONG I: a lower-case letter outside the BMP (2 UTF-16 units).
    const letter = "\u{10428}";
    expect(codePointLength(letter.repeat(64))).toBe(64);
    expect(codes(letter.repeat(64))).toEqual([]);
    expect(codes(letter.repeat(65))).toEqual(["name-too-long"]);
  });
});

describe("suggestName", () => {
  it.each([
    ["PocketBase Hooks", "pocket-base-hooks"],
    ["SEOAgent", "seoagent"],
    ["my_skill", "my-skill"],
    ["contact-center/android", "contact-center-android"],
    ["--x--", "x"],
  ])("%j → %j", (name, expected) => {
    expect(suggestName(name)).toBe(expected);
  });
});
