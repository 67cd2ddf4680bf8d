/**
 * parseSkillStart decodes only the frontmatter and the start of a large body: its result must
 * be parseSkill's — every field, diagnostic and the hash — but for a body cut to its start,
 * which must be exactly the start of the whole body. Checked on every file of the skills
 * mirror and on the files that take the other way (CR, BOM, NUL, invalid UTF-8 past the
 * window, blank lines or whitespace filling the window, line separators, strict mode).
 */
import { readFileSync } from "node:fs";
import { skipWithoutSharedData } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { mirrorSkillFiles } from "../../test/fixtures/shared-data.js";
import type { ParseOptions } from "../types.js";
import { parseSkill, parseSkillStart } from "./parse-skill.js";

const CHARS = 3_000;

/** Checks parseSkillStart against parseSkill on `bytes`; true when it cut the body. */
function expectSameStart(bytes: Uint8Array, options: ParseOptions): boolean {
  const whole = parseSkill(bytes, options);
  const start = parseSkillStart(bytes, options, CHARS);
  const label = options.path ?? "";
  if (!start.truncated) {
    expect(start.result, label).toStrictEqual(whole);
    return false;
  }
  const cut = start.result.skill!;
  const full = whole.skill!;
  expect(cut.body.length, label).toBeGreaterThan(CHARS + 1);
  expect(full.body.startsWith(cut.body), label).toBe(true);
  expect({ ...cut, body: "" }, label).toStrictEqual({ ...full, body: "" });
  expect(start.result.diagnostics, label).toStrictEqual(whole.diagnostics);
  expect(start.mentionsArguments, label).toBe(full.body.includes("$ARGUMENTS"));
  // The start a loader keeps, as bytes copied from the file: the body's first units exactly,
  // with a surrogate pair cut at the end kept whole.
  const last = full.body.charCodeAt(CHARS - 1);
  const units = last >= 0xd800 && last <= 0xdbff ? CHARS + 1 : CHARS;
  expect(start.head?.toString("utf8"), label).toBe(full.body.slice(0, units));
  return true;
}

const skillFile = (body: string, front = "name: a\ndescription: A skill.\n") => `---\n${front}---\n${body}`;
const long = (unit: string) => unit.repeat(Math.ceil(20_000 / unit.length));

describe("parseSkillStart", () => {
  it("gives parseSkill's result on every file of the skills mirror, the body cut to its start", (ctx) => {
    skipWithoutSharedData(ctx);
    let cut = 0;
    let files = 0;
    for (const file of mirrorSkillFiles()) {
      files++;
      if (expectSameStart(readFileSync(file), { path: file, mode: "lenient" })) cut++;
    }
    expect(files).toBeGreaterThan(15_000);
    // Not vacuous: the long files (a third of the mirror) take the short way.
    expect(cut).toBeGreaterThan(files / 5);
    // The whole mirror: minutes on a loaded 2-core CI machine, not the default 20 s.
  }, 300_000);

  it("cuts between characters and keeps a surrogate pair whole", () => {
    for (const unit of ["word ", "é", "日本語 ", "🎉", "a🎉", "\u00a0x", "$ARGUMENTS "]) {
      const body = long(unit);
      const bytes = Buffer.from(skillFile(body));
      expect(expectSameStart(bytes, { path: "/skills/a/SKILL.md" }), unit).toBe(true);
    }
  });

  it("reads whole what it cannot vouch for", () => {
    const cases: Record<string, Uint8Array> = {
      short: Buffer.from(skillFile("# Short\n")),
      "carriage returns": Buffer.from(skillFile(long("line\r\n"))),
      "byte order mark": Buffer.from(`\ufeff${skillFile(long("word "))}`),
      "NUL in the body": Buffer.from(skillFile(`${long("word ")}\0`)),
      "invalid UTF-8 past the window": Buffer.concat([
        Buffer.from(skillFile(long("word "))),
        Buffer.from([0xff]),
      ]),
      "blank lines filling the window": Buffer.from(skillFile(`${"\n".repeat(13_000)}${long("word ")}`)),
      "whitespace filling the window": Buffer.from(skillFile(`x${" ".repeat(13_000)}${long("word ")}`)),
      "whitespace to the end": Buffer.from(skillFile(`x${" ".repeat(30_000)}`)),
      "a line separator before the fence": Buffer.from(
        skillFile(long("word "), "name: a\ndescription: A\u2028---\n"),
      ),
      "a paragraph separator": Buffer.from(
        skillFile(long("word "), "name: a\ndescription: A \u2029 skill.\n"),
      ),
      "no closing fence": Buffer.from(`---\nname: a\ndescription: A skill.\n${long("word ")}`),
      "fence at the end": Buffer.from(`---\nname: a\ndescription: A skill.\n${long("x: y\n")}---`),
      "no frontmatter": Buffer.from(long("word ")),
      "invalid frontmatter": Buffer.from(skillFile(long("word "), "name: [a\n")),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      const start = parseSkillStart(bytes, { path: "/skills/a/SKILL.md" }, CHARS);
      expect(start.result, name).toStrictEqual(parseSkill(bytes, { path: "/skills/a/SKILL.md" }));
      expect(start.truncated, name).toBe(false);
    }
    // Strict mode counts the body's lines: always whole.
    const strict = parseSkillStart(
      Buffer.from(skillFile(long("line\n"))),
      { path: "/a/SKILL.md", mode: "strict" },
      CHARS,
    );
    expect(strict.truncated).toBe(false);
  });

  it("gives parseSkill's result on hostile mixes of characters around the cut", () => {
    // Units that straddle the cut, look like what the cut looks for, or that trimming and
    // fences treat specially: multi-byte characters of every length, a lone fence line, line
    // and paragraph separators, a BOM inside the text, Unicode spaces, `$ARGUMENTS` and a
    // full-width look-alike.
    const units = [
      "a",
      " ",
      "\n",
      "\n\n",
      "\t",
      "é",
      "日",
      "🎉",
      "\u2028",
      "\u2029",
      "\ufeff",
      "\u00a0",
      "\u3000",
      "\n---\n",
      "---",
      "$ARGUMENTS",
      "$ARGUMENT",
      "＄ARGUMENTS",
      "$ＡRGUMENTS",
      "\u0301",
      "\ud83c\udf89",
    ];
    const fronts = [
      "name: a\ndescription: A skill.\n",
      "name: a\ndescription: 一个技能，带很多中文字符。🎉\n",
      "name: a\ndescription: >\n  folded\n  text\n",
      "name: a\n",
      "",
    ];
    let seed = 5;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    let cut = 0;
    for (let k = 0; k < 400; k++) {
      const front = fronts[k % fronts.length] as string;
      // A filler that puts the body's length near the cut, then hostile units around it.
      const filler = ["word ", "日本語", "é", "🎉"][random(4)] as string;
      let body = filler.repeat(Math.floor((CHARS - 60 + random(120)) / filler.length));
      for (let i = 0, n = 1 + random(40); i < n; i++) body += units[random(units.length)];
      if (random(2) === 0) body += filler.repeat(random(3) * 1_000);
      const bytes = Buffer.from(skillFile(body, front));
      if (expectSameStart(bytes, { path: "/skills/a/SKILL.md" })) cut++;
    }
    // Not vacuous: many of these take the short way.
    expect(cut).toBeGreaterThan(50);
  });
});
