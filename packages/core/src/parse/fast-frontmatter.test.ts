/**
 * The fast YAML path must change nothing but speed: for every input, parseSkill with it
 * gives exactly what the full `yaml` path gives (skill, every field, every diagnostic with
 * its line). Checked on the whole real corpus, the parser edge cases, the skills-ref table,
 * hand-written YAML corners, and seeded mutations of real frontmatters.
 */
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { readSharedText, skipWithoutSharedData } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { EDGE_CASES } from "../../test/fixtures/parser-edge-cases.js";
import { mulberry32 } from "../../test/fixtures/seeded-random.js";
import { SHARED_DATA } from "../../test/fixtures/shared-data.js";
import { SKILLS_REF_CASES } from "../../test/fixtures/skills-ref.js";
import type { ParseMode, ParseOptions } from "../types.js";
import { readFastFrontmatter } from "./fast-frontmatter.js";
import { splitFrontmatter } from "./frontmatter.js";
import { parseSkillWith } from "./parse-skill.js";

const CORPUS = join(SHARED_DATA, "skills-corpus");
const CORPUS_FILES = readSharedText("skills-corpus/MANIFEST.tsv")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => line.split("\t")[0]!)
  .filter((path) => basename(path) === "SKILL.md")
  .map((path) => join(CORPUS, path));
const EDGE_FILES = EDGE_CASES.map((c) => join(SHARED_DATA, "parser-edge-cases", c.case, "SKILL.md"));

const MODES: readonly ParseMode[] = ["lenient", "strict"];

function expectSamePaths(input: string | Uint8Array, options: ParseOptions): void {
  for (const mode of MODES) {
    const withFast = parseSkillWith(input, { ...options, mode }, true);
    const fullOnly = parseSkillWith(input, { ...options, mode }, false);
    expect(withFast, `${options.path} (${mode})`).toStrictEqual(fullOnly);
  }
}

function yamlOf(text: string): string | undefined {
  const split = splitFrontmatter(text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n"));
  return split.kind === "ok" ? split.yaml : undefined;
}

describe("fast frontmatter path = full path", () => {
  it("on every file of the real corpus, in both modes", (ctx) => {
    skipWithoutSharedData(ctx);
    let fast = 0;
    for (const file of CORPUS_FILES) {
      const bytes = readFileSync(file);
      expectSamePaths(bytes, { path: file });
      const yaml = yamlOf(bytes.toString("utf8"));
      if (yaml !== undefined && readFastFrontmatter(yaml) !== undefined) fast++;
    }
    expect(CORPUS_FILES).toHaveLength(939);
    // Not vacuous: the fast path reads every real frontmatter (the full path only breaks ties).
    expect(fast).toBe(939);
  }, 300_000);

  it("on every parser edge case", (ctx) => {
    skipWithoutSharedData(ctx);
    let read = 0;
    for (const file of EDGE_FILES) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue; // a case whose SKILL.md is not a readable file
      }
      expectSamePaths(bytes, { path: file });
      read++;
    }
    expect(read).toBeGreaterThanOrEqual(25);
  });

  it("on every skills-ref case", () => {
    for (const c of SKILLS_REF_CASES) {
      if (c.content === undefined) continue;
      expectSamePaths(c.content, { path: `/skills/${c.folder ?? "skill"}/${c.file ?? "SKILL.md"}` });
    }
  });

  const corners: Record<string, string> = {
    numbers:
      "version: 1.10\npriority: 007\nmetadata:\n  a: 1.0\n  b: 0o17\n  c: 0x1F\n  d: +5\n  e: -0\n  f: 1e3\n  g: .inf\n  h: -.Inf\n  i: .NaN\n  j: 12_000\n  k: 0b101\n  l: 1.",
    "numbers in extra and lists":
      "n: 1.10\nm: [1, 2.50, 0x10, '3']\ntriggers: [1, 2.0]\narguments: 1 2\npriority: 1e2",
    booleans:
      "disable-model-invocation: True\nuser-invocable: 'false'\nrole: yes\nx: TRUE\ny: FaLsE\nz: [true, False, on]",
    nulls: "license: ~\nmodel: Null\ngroup:\nx: NULL\ny: [~, null, ]\nz: {a: ~}",
    "quoted scalars":
      'name: "a"\nlicense: \'it\'\'s\'\nmodel: "tab\\tnew\\nline \\u00e9 \\x41 \\/ \\"q\\""\ngroup: "multi\n  line\n\n  para"\nversion: \'1.0\'',
    "block scalars":
      "a: |\n  keep\n   more\n\n  end\nb: >\n  folded\n  text\n\n    indented\n  back\nc: |-\n  strip\n\nd: |+\n  keep\n\ne: >2\n   lead\nf: >-\n\n  after blank\n",
    "plain multi-line": "a: one\n  two\n\n  three\nb: - not a list\nc: x #comment\nd: x#y\ne: 'a' # c",
    "flow collections":
      "allowed-tools: [Read, 'Bash(git:*)', \"Grep\"]\nmetadata: {a: 1, b: [x, y], c: {d: e}}\nx: [a, [b, c], {d: e}]\ny: {}\nz: []\nw: [a,\n  b]",
    "sequences at key indent": "triggers:\n- a\n- b\n-\nexamples:\n  - one\n  -   two\n  - - nested\n",
    "prototype keys":
      "__proto__: x\nconstructor: y\nmetadata:\n  __proto__: {polluted: true}\n  constructor: z\n  toString: w\nextra: {__proto__: 1, hasOwnProperty: 2}",
    "duplicate and case-variant keys":
      "name: a\nName: b\nname: c\ndescription: d\nDESCRIPTION: e\nauthor: x\nAuthor: y\nauthor: z\nmetadata: {k: 1, k: 2}\nallowed_tools: Read\nnot-for: foo",
    "quoted and odd keys":
      '"description": quoted key\n\'license\': single\n"a b": c\n"": empty\n1: one\n1.5: x\ntrue: t\n~: n\nnull: m',
    "complex keys": "? [a, b]\n: c\n? {x: y}\n: z\n[d]: e",
    "anchors and aliases": "a: &x hello\nb: *x\nc: &l [1, 2]\nd: *l\nmetadata: &m {k: v}\nextra: *m",
    "alias bomb":
      "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nmetadata: {k: *d}",
    "undefined alias": "metadata: *nope",
    tags: "a: !!str 1\nb: !!int '2'\nc: !custom x\nd: !!binary aGk=\nversion: !!float 1\nlicense: !<tag:yaml.org,2002:str> MIT",
    "merge key": "base: &b {a: 1}\nmetadata:\n  <<: *b\n  c: 2\nx:\n  <<: {d: 1}",
    "bare merge key": "metadata:\n  <<: {d: 1}\n  e: 2\n<<: top",
    directives: "%YAML 1.2\n---\nname: a",
    "document end": "name: a\n...\n",
    "document end then more": "name: a\n...\nx: y\n",
    "two documents": "name: a\n---\nx: y",
    "colon in value": "description: Use when: the user asks\nlicense: a:b\nmodel: 'x: y'",
    "colon value in a list": "triggers:\n  - when: x\n  - a: b: c",
    tabs: "a:\tvalue\nb: x\t\nc:\n\t- d\n",
    "tab after indicator": "a:\n  -\tx\n  - \ty",
    "long implicit key": `${"k".repeat(1100)}: v`,
    "trailing spaces": "a: x   \nb: |   \n  y  \n",
    "comment only": "# nothing here\n",
    empty: "",
    "list root": "- a\n- b",
    "scalar root": "just text",
    "quoted root": '"text"',
    "flow map root": "{name: a, description: b}",
    "unicode and emoji": "description: Café ☕ 🎉 日本語\nname: café\nmetadata: {é: ü}",
    "reserved indicators": "a: @x\nb: `y`\nc: %z",
    "unterminated quote": 'description: "open\nname: a',
    "bad indentation": "description: a\n  name: b\n metadata: c",
    "deep nesting": `metadata: ${"[".repeat(120)}${"]".repeat(120)}`,
    "escaped line breaks": "description: \"a\\\n  b\\ c\"\nlicense: 'x\n\n  y'",
    "special floats as text fields": "version: .5\nmodel: 1.0e+3\ngroup: -.inf\nargument-hint: 0o7",
    "nested duplicate keys":
      "metadata:\n  version: 1\n  author: a\n  version: 2\n  version: 3\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      matcher: Write\n  PreToolUse: []\nx: {a: 1, b: {c: 1, c: 2}}",
    "Claude Code fields":
      "argument-hint: [issue-number]\ncontext: fork\nagent: Explore\npaths: ['src/**/*.ts', docs/*.md]\nhooks:\n  PostToolUse:\n    - matcher: Edit\n      hooks: [{type: command, command: ./lint.sh, timeout: 30}]\neffort: High\nmodel: claude-opus-4",
    "Claude Code fields, odd values":
      "context: inline\neffort: extreme\npaths: a/*, {b,c}/**\nhooks: run.sh\nargument-hint: [[a], b]",
    "block header with text":
      "description: | One line.\nlicense: > MIT\nmodel: >- x: y\nargument-hint: [file] [mode]",
    "empty values that look set": "description: # Heading\nlicense: |\nmodel: >\n",
  };

  it.each(Object.entries(corners))("on YAML corners: %s", (_name, yaml) => {
    // With name and description the corner is the only thing that can send a file off the
    // fast path; without them the full path reports what is missing.
    for (const fields of ["name: a\ndescription: A skill.\n", "description: A skill.\n", ""]) {
      for (const order of [0, 1]) {
        const front = order === 0 ? `${fields}${yaml}` : `${yaml}\n${fields}`;
        expectSamePaths(`---\n${front}\n---\n# Body\n`, { path: "/skills/a/SKILL.md" });
      }
    }
  });

  it("the fast path refuses what it cannot read exactly as `yaml` does", () => {
    for (const name of [
      "anchors and aliases",
      "alias bomb",
      "tags",
      "complex keys",
      "directives",
      "two documents",
      "colon in value",
      "list root",
      "scalar root",
    ]) {
      expect(readFastFrontmatter(corners[name]!), name).toBeUndefined();
    }
    expect(readFastFrontmatter("1: one\n")).toBeUndefined();
    expect(readFastFrontmatter("~: n\n")).toBeUndefined();
    expect(readFastFrontmatter("name: a\ndescription: b\n")?.pairs.map((p) => p.key)).toEqual([
      "name",
      "description",
    ]);
  });

  it("on seeded mutations of real frontmatters (the fast path never accepts what `yaml` rejects)", (ctx) => {
    skipWithoutSharedData(ctx);
    const random = mulberry32(20261130);
    const pieces = [
      ":",
      ": ",
      "\n",
      "\n  ",
      "\t",
      " ",
      "-",
      "- ",
      "#",
      " #",
      '"',
      "'",
      "|",
      ">",
      "[",
      "]",
      "{",
      "}",
      ",",
      "&a ",
      "*a",
      "!",
      "? ",
      "%",
      "@",
      "`",
      "\\",
      "---",
      "...",
      "~",
      "0x1",
      "1.0",
      "\u00e9",
    ];
    const sources = CORPUS_FILES.filter((_, i) => i % 4 === 0).map((file) => readFileSync(file, "utf8"));
    let mutants = 0;
    let readFast = 0;
    for (const text of sources) {
      const yaml = yamlOf(text);
      if (yaml === undefined) continue;
      const body = "# Body\n";
      for (let m = 0; m < 12; m++) {
        let mutated = yaml;
        const edits = 1 + Math.floor(random() * 3);
        for (let e = 0; e < edits; e++) {
          const at = Math.floor(random() * (mutated.length + 1));
          const roll = random();
          if (roll < 0.6) {
            const piece = pieces[Math.floor(random() * pieces.length)]!;
            mutated = mutated.slice(0, at) + piece + mutated.slice(at);
          } else if (roll < 0.85) {
            mutated = mutated.slice(0, at) + mutated.slice(at + 1 + Math.floor(random() * 4));
          } else {
            const lines = mutated.split("\n");
            const i = Math.floor(random() * lines.length);
            lines.splice(i, 0, lines[Math.floor(random() * lines.length)]!);
            mutated = lines.join("\n");
          }
        }
        // Keep the fences intact: a mutation must stay inside the frontmatter.
        if (/^---[ \t]*$/m.test(mutated)) continue;
        // No folder to match: a name-mismatch warning would send every mutant to the full path.
        expectSamePaths(`---\n${mutated}\n---\n${body}`, {
          path: "/skills/mutant/SKILL.md",
          folderName: false,
        });
        mutants++;
        if (readFastFrontmatter(mutated) !== undefined) readFast++;
      }
    }
    expect(mutants).toBeGreaterThan(2000);
    // Both sides are exercised: many mutants stay fast-readable, many do not.
    expect(readFast).toBeGreaterThan(mutants / 4);
    expect(readFast).toBeLessThan(mutants);
  }, 300_000);
});
