/**
 * The line reader must change nothing but speed: wherever it reads a frontmatter, it reads
 * exactly what js-yaml's event reader reads (the same keys, key offsets, values as text and
 * as JS, nested duplicates), and parseSkill with the fast readers gives exactly what the full
 * `yaml` path gives. Checked on every frontmatter of the skills mirror (15,725 real files),
 * the corpus, the parser edge cases, hand-written corners and seeded mutations.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { skipWithoutSharedData } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { EDGE_CASES } from "../../test/fixtures/parser-edge-cases.js";
import { mulberry32 } from "../../test/fixtures/seeded-random.js";
import { mirrorSkillFiles, SHARED_DATA } from "../../test/fixtures/shared-data.js";
import { readFastFrontmatter } from "./fast-frontmatter.js";
import { splitFrontmatter } from "./frontmatter.js";
import { readLineFrontmatter } from "./line-frontmatter.js";
import { parseSkillWith } from "./parse-skill.js";
import type { Frontmatter } from "./yaml-frontmatter.js";

function yamlOf(text: string): string | undefined {
  const split = splitFrontmatter(text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n"));
  return split.kind === "ok" ? split.yaml : undefined;
}

/** Everything normalizeMeta can read of a frontmatter. */
function readable(frontmatter: Frontmatter) {
  return frontmatter.pairs.map((pair) => ({
    key: pair.key,
    at: pair.keyNode?.range?.[0],
    text: frontmatter.text(pair.value, { aliases: 100 }),
    js: frontmatter.js(pair.value),
    duplicates: frontmatter.duplicates(pair.value, pair.key),
  }));
}

/** Whether the line reader took `yaml`, after checking it read it as the event reader does. */
function expectSameAsEvents(yaml: string, label: string): boolean {
  const byLines = readLineFrontmatter(yaml);
  if (byLines === undefined) return false;
  const byEvents = readFastFrontmatter(yaml);
  expect(byEvents, `${label}: the event reader refuses what the line reader read`).toBeDefined();
  expect(readable(byLines), label).toStrictEqual(readable(byEvents!));
  return true;
}

function expectSamePaths(input: string | Uint8Array, path: string, folderName?: false): void {
  for (const mode of ["lenient", "strict"] as const) {
    const options = { path, mode, ...(folderName === false ? { folderName } : {}) };
    expect(parseSkillWith(input, options, true), `${path} (${mode})`).toStrictEqual(
      parseSkillWith(input, options, false),
    );
  }
}

describe("line frontmatter reader = event reader = full path", () => {
  it("on every frontmatter of the skills mirror", (ctx) => {
    skipWithoutSharedData(ctx);
    let frontmatters = 0;
    let read = 0;
    for (const file of mirrorSkillFiles()) {
      const bytes = readFileSync(file);
      const yaml = yamlOf(bytes.toString("utf8"));
      if (yaml === undefined) continue;
      frontmatters++;
      if (expectSameAsEvents(yaml, file)) {
        read++;
        // The whole parse too, on a sample (the full path is slow): every 16th file it reads.
        if (read % 16 === 0) expectSamePaths(bytes, file);
      }
    }
    expect(frontmatters).toBeGreaterThan(15_000);
    // Not vacuous: the line reader takes most real frontmatters.
    expect(read).toBeGreaterThan(frontmatters / 2);
    // The whole mirror: minutes on a loaded 2-core CI machine, not the default 20 s.
  }, 300_000);

  it("on every parser edge case", (ctx) => {
    skipWithoutSharedData(ctx);
    for (const c of EDGE_CASES) {
      const file = join(SHARED_DATA, "parser-edge-cases", c.case, "SKILL.md");
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue; // a case whose SKILL.md is not a readable file
      }
      const yaml = yamlOf(bytes.toString("utf8"));
      if (yaml !== undefined) expectSameAsEvents(yaml, file);
      expectSamePaths(bytes, file);
    }
  });

  const corners: Record<string, string> = {
    "plain values": "name: a-skill\ndescription: Use when the user asks for x, y (and z).\nlicense: MIT",
    "typed plain values":
      "version: 1.10\npriority: 007\nx: 0x1F\ny: .inf\nz: -.Inf\nw: 1e3\nv: 12_000\nu: true\nt: False\ns: null\nr: ~\nq: NULL",
    "quoted values": "name: \"a\"\ndescription: 'it is'\nx: \"a # b\"\ny: 'a: b'\nz: \"\"\nw: ''",
    "quotes that need more":
      'a: \'it\'\'s\'\nb: "say \\"hi\\""\nc: "tab\\t"\nd: "a" b\ne: \'a\' # c\nf: "open\ng: \'x',
    "escaped quotes":
      'a: "x\\"\nb: "x\\\\"\nc: "\\"\\\\\\""\nd: \'a\'\'\'\'b\'\ne: "a\\" b"\nf: \'\'\'\ng: "\\/"\nh: "é\\"é"\ni: "a\\\\\\"\nj: ["a\\\\", \'b\'\'c\']\nk: "\\\\"\nl: \'\'\'\'\nm: "say \\"hi\\" \\\\ bye"\nn: \' it\'\'s \'',
    "lists and one level of metadata":
      "allowed-tools:\n  - Read\n  -   Write\n  - 'Bash(git:*)'\nmetadata:\n  author: me\n  version: 1.0\n  empty:\n  n: 3\n",
    "blank lines": "\n\nname: a\n\n   \ndescription: b\n\nmetadata:\n\n  a: 1\n\n  b: 2\n\n",
    "null values": "a:\nb:   \nc:\n\nd: x",
    duplicates: "name: a\nname: b\nmetadata:\n  k: 1\n  k: 2\n  k: 3\n",
    "prototype keys": "__proto__: x\nconstructor: y\nmetadata:\n  __proto__: z\n  toString: w",
    "keys that are not strings": "true: a\nNull: b\nFALSE: c",
    "keys it does not read": "\"a\": b\n'c': d\n1: e\na b: c\na:b: c\n? x\n: y\nk : v\n<<: m",
    continuations: "a: one\n  two\nb: x\n\n  y\nc:\n  - a\n    b\nd:\n  k: v\n    w",
    "indentation that moves": "a:\n  - x\n   - y\nb:\n   k: v\n  l: w\nc:\n- x\nd:\n  - x\n  k: v",
    "nested blocks": "list:\n  - - x\n  - k: v\n  -\n  - \nl2:\n  - |\n    x\n  - >\n    y",
    comments: "# c\nname: a # c\ndescription: b #c\nx: a#b\nmetadata:\n  # c\n  a: b",
    colons: "a: b: c\nb: ends:\nc: a:b\nd: 'q: r'\ne: x :y",
    indicators:
      "a: - x\nb: -x\nc: [x]\nd: {k: v}\ne: &a x\nf: *a\ng: !t x\nh: |\n  x\ni: >\n  y\nj: @x\nk: `x`\nl: %x\nm: ?x\nn: :x\no: ,x\np: #x",
    "document markers": "name: a\n...\n",
    "more documents": "name: a\n--- \nx: y",
    "characters it leaves to the parsers":
      "a: x\ty\nb: x\u0085y\nc: x\u2028y\nd: \ufeffx\ne: x\u0007\nf: \ud800x\ng: x\u00a0\nh: 🎉 ok\ni: café",
    "long key": `${"k".repeat(300)}: v\nname: a`,
    "flow lists":
      "a: [Read, Write]\nb: []\nc: [ x ,  'y, z' , \"w\" ]\nd: [1, 2.50, true, ~]\ne: [Bash(git:*), a#b, it's]\nf:\n  - [a, b]\nmetadata:\n  t: [x]",
    "flow mappings":
      'a: {"k": v, "l": [x, "y"], \'m\': {"n": 1.0, "o": true}}\nb: {}\nc: { "k" : v }\nd: {"k":"v","l":[],"m":{}}\ne: [{"k": v}, [a, [b]]]\nf: {"emoji": "🦀", "requires": {"config": ["models.providers.blockrun"]}}\ng:\n  - {"k": v}\nh: {"__proto__": x, "constructor": y, "toString": {"a": b}}\ni: {"": v}\nj: {"k": Bash(git:*), "l": a b}',
    "flow mappings it does not read":
      'a: {k: v}\nb: {"k": v,}\nc: {"k": }\nd: {"k"}\ne: {"k": v, "k": w}\nf: {"k": v} x\ng: {"k": v\nh: {"k": &a v}\ni: {"k": !t v}\nj: {"k": v #c}\nk: {? "k": v}\nl: ["k": v]\nm: {"k": v]\nn: [a}\no: {"k": "a\\"b"}\np: {"k": {"k": v}, "k": w}\nq: {"k": a: b}\nr: {"k":\n  v}\ns: {"k": -1, "l": -x}\nt: {"it\'s": v}\nu: {\'a\'\'b\': v}',
    "flow lists it does not read":
      "a: [a, ]\nb: [a,,b]\nc: [a: b]\nd: [a, [b]]\ne: [{k: v}]\nf: [a] b\ng: [a #c]\nh: ['it''s']\ni: [\"a\\\"b\"]\nj: [a:]\nk: [a,\n  b]\nl: [-a]\nm: [&x a]\nn: [a]]\no: [[a]",
    "lists at the key's indentation":
      "a:\n- x\n- 'y'\nb: c\nd:\n-   e\n\n- f\ng:\n-\nh:\n- x\n  - y\ni:\n- x\n k: v\nj:\n-x",
    "plain scalars over several lines":
      "description: one\n  two\n\n  three\n\n\n  four   \nb:\n  on the next line\n  and the one after\nc: x\n y\nd:\n  - item\n    goes on\n  - next\n   odd\nmetadata:\n  k: v\n    w\ne: -starts with a dash\nf: -1",
    "continuations it does not read":
      'a: x\n  - y\nb: x\n  # c\nc: x\n  y: z\nd: x\n  "q"\ne: -\nf: --x\ng: "q"\n  more\nh: [a]\n  b',
    "block scalars":
      "a: |\n  keep\n   more\n\n  end\nb: >\n  folded\n  text\n\n  para\nc: |-\n  strip\n\nd: >-\n\n  after blank\ne: >\n  one\n\n\n  two\nf: |\n\n  lead\nmetadata:\n  g: |\n    nested\n  h: x\n",
    "block scalars it does not read":
      "a: |+\n  keep\n\nb: >2\n   lead\nc: |\n  trailing \nd: >\n  x\n    more\n  y\ne: |\nf: >\n   \n  x\ng: | # c\n  x\nh: |\n    x\n  y\ni: |1-\n  x",
    "nested mappings": "metadata:\n  a:\n    b: c\n    d:\n      - e\n  f: g\nhooks:\n  pre:\n    - x\n",
    "spaces at the end": "a: x   \nb: 'y'  \nc:\n  - z   \n",
  };

  it.each(Object.entries(corners))("on corners: %s", (_name, yaml) => {
    for (const line of yaml.split("\n")) expectSameAsEvents(line, JSON.stringify(line));
    expectSameAsEvents(yaml, _name);
    for (const fields of ["name: a\ndescription: A skill.\n", ""]) {
      for (const front of [`${fields}${yaml}`, `${yaml}\n${fields}`]) {
        expectSameAsEvents(front, _name);
        expectSamePaths(`---\n${front}\n---\n# Body\n`, "/skills/a/SKILL.md");
      }
    }
  });

  it("reads the common shapes and refuses the rest", () => {
    expect(readable(readLineFrontmatter("name: a\ndescription: 'b'\nmetadata:\n  v: 1.0\n")!)).toEqual([
      { key: "name", at: 0, text: "a", js: "a", duplicates: [] },
      { key: "description", at: 8, text: "b", js: "b", duplicates: [] },
      { key: "metadata", at: 25, text: { v: "1.0" }, js: { v: 1 }, duplicates: [] },
    ]);
    for (const refused of [
      "",
      "\n",
      "a: |+\n  x\n",
      "a: [x",
      "# c\na: b",
      "a: b # c",
      "a: x\n  # y",
      "a:\tb",
      "a: {k: v}",
    ]) {
      expect(readLineFrontmatter(refused), JSON.stringify(refused)).toBeUndefined();
    }
  });

  it("on seeded random flow collections and quoted scalars", () => {
    const random = mulberry32(20261202);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const inner = (pieces: readonly string[]) => {
      let text = "";
      for (let n = Math.floor(random() * 4); n > 0; n--) text += pick(pieces);
      return text;
    };
    const doubleQuoted = () =>
      `"${inner(["a", " ", "é", '\\"', "\\\\", "\\n", "\\", "'", " #", ": ", ",", "{", "]"])}"`;
    const singleQuoted = () => `'${inner(["a", " ", "🎉", "''", '"', "\\", " #", ": ", "}"])}'`;
    const separator = () => pick([",", ", ", " , ", ",  "]);
    const value = (depth: number): string => {
      const roll = random();
      if (roll < 0.25) return doubleQuoted();
      if (roll < 0.4) return singleQuoted();
      if (roll < 0.55 || depth > 2)
        return pick(["a", "b c", "1", "1.0", "true", "~", "x:y", "Bash(git:*)", "-1"]);
      const items: string[] = [];
      for (let n = Math.floor(random() * 4); n > 0; n--) {
        if (roll < 0.75) items.push(value(depth + 1));
        else
          items.push(
            `${random() < 0.5 ? doubleQuoted() : singleQuoted()}${pick([":", ": ", " : ", ":  "])}${value(depth + 1)}`,
          );
      }
      const spaced = random() < 0.5;
      const body = items.join(separator());
      return roll < 0.75 ? `[${spaced ? ` ${body} ` : body}]` : `{${spaced ? ` ${body} ` : body}}`;
    };
    const corruptions = ["{", "}", "[", "]", ",", ":", '"', "'", "\\", " ", "#", "&", "*", "!", "?", "-"];
    let read = 0;
    let refused = 0;
    for (let n = 0; n < 20_000; n++) {
      let text = value(0);
      if (random() < 0.3) {
        const at = Math.floor(random() * (text.length + 1));
        text =
          random() < 0.7
            ? text.slice(0, at) + pick(corruptions) + text.slice(at)
            : text.slice(0, at) + text.slice(at + 1);
      }
      const yaml = `name: a\nm: ${text}\nz: 1`;
      if (expectSameAsEvents(yaml, JSON.stringify(yaml))) {
        read++;
        if (read % 8 === 0) expectSamePaths(`---\n${yaml}\n---\n# Body\n`, "/skills/a/SKILL.md");
      } else {
        refused++;
      }
    }
    // Not vacuous: most are read, and many refused.
    expect(read).toBeGreaterThan(8_000);
    expect(refused).toBeGreaterThan(1_000);
  }, 300_000);

  it("on seeded mutations of real frontmatters", (ctx) => {
    skipWithoutSharedData(ctx);
    const random = mulberry32(20261201);
    const pieces = [
      ":",
      ": ",
      "\n",
      "\n  ",
      "\n- ",
      "  - ",
      "\t",
      " ",
      "-",
      "#",
      " #",
      '"',
      "'",
      "\\",
      "|",
      ">",
    ];
    const pieces2 = [
      "[",
      "{",
      "&a ",
      "*a",
      "!",
      "? ",
      "%",
      "@",
      "`",
      "...",
      "--- ",
      "~",
      "0x1",
      "1.0",
      "é",
      "\u2028",
    ];
    const all = [...pieces, ...pieces2];
    const files = mirrorSkillFiles().filter((_, i) => i % 16 === 0);
    let mutants = 0;
    let read = 0;
    for (const file of files) {
      const yaml = yamlOf(readFileSync(file, "utf8"));
      if (yaml === undefined || readLineFrontmatter(yaml) === undefined) continue;
      for (let m = 0; m < 6; m++) {
        let mutated = yaml;
        const edits = 1 + Math.floor(random() * 3);
        for (let e = 0; e < edits; e++) {
          const at = Math.floor(random() * (mutated.length + 1));
          const roll = random();
          if (roll < 0.7) {
            mutated = mutated.slice(0, at) + all[Math.floor(random() * all.length)]! + mutated.slice(at);
          } else {
            mutated = mutated.slice(0, at) + mutated.slice(at + 1 + Math.floor(random() * 4));
          }
        }
        if (/^---[ \t]*$/m.test(mutated)) continue;
        mutants++;
        if (expectSameAsEvents(mutated, JSON.stringify(mutated))) read++;
        if (m === 0) expectSamePaths(`---\n${mutated}\n---\n# Body\n`, "/skills/mutant/SKILL.md", false);
      }
    }
    expect(mutants).toBeGreaterThan(2000);
    expect(read).toBeGreaterThan(mutants / 4);
    expect(read).toBeLessThan(mutants);
    // The whole mirror: minutes on a loaded 2-core CI machine, not the default 20 s.
  }, 300_000);
});
