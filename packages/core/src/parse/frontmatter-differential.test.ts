/**
 * The fast frontmatter readers against the reference: for each probe, parseSkill with the
 * fast path allowed must give exactly what the full `yaml` path gives, security fields
 * (`allowed-tools`, `disable-model-invocation`, `user-invocable`) first among them. A probe
 * is a frontmatter written to sit on the edge of what a fast reader takes: a reader that takes
 * it must read it the same, one that does not must hand it on. These are the shapes a
 * hostile skill author would try to make two parsers disagree on.
 */
import { describe, expect, it } from "vitest";
import { parseSkillWith } from "./parse-skill.js";

const BASE = "name: probe-skill\ndescription: Probes the frontmatter readers.\n";

/** Frontmatters (without their `---` lines), each after BASE unless it starts with `!`. */
const PROBES: Record<string, string> = {
  // Duplicate keys, top level and nested.
  "duplicate allowed-tools": "allowed-tools: Read\nallowed-tools: Bash\n",
  "duplicate disable-model-invocation": "disable-model-invocation: true\ndisable-model-invocation: false\n",
  "duplicate, list then scalar": "allowed-tools:\n  - Read\nallowed-tools: Bash(rm:*)\n",
  "duplicate nested": "metadata:\n  owner: a\n  owner: b\n",
  "duplicate name": "!name: first\nname: second\ndescription: d\n",
  // Comments.
  "comment after a value": "disable-model-invocation: true # not really\n",
  "comment after a list item": "allowed-tools:\n  - Read # only\n  - Bash\n",
  "comment after a flow list": "allowed-tools: [Read, Write] # and more\n",
  "comment line between": "allowed-tools:\n  - Read\n# - Bash\n  - Write\n",
  "indented comment line": "allowed-tools:\n  - Read\n  # - Bash\n  - Write\n",
  "hash without a space": "allowed-tools: Read#Bash\n",
  "hash inside a flow item": "allowed-tools: [Read#x, Bash]\n",
  "comment after a quoted value": "allowed-tools: 'Read' # x\n",
  "comment after a block scalar header": "description: | # header\n  text\n",
  // Quotes and escapes.
  "single quote doubled": "allowed-tools: 'Bash(echo ''hi'':*)'\n",
  "double quote escaped": 'allowed-tools: "Bash(echo \\"x\\":*)"\n',
  "double quote escapes": 'allowed-tools: "Read\\u0020Bash\\tWrite"\n',
  "backslash in single quotes": "allowed-tools: 'Read\\nBash'\n",
  "quote in the middle": "allowed-tools: Read'Bash\n",
  "quoted then text": "allowed-tools: 'Read' Bash\n",
  "quoted key": '!"name": quoted-key\ndescription: d\n',
  "quoted flow items": "allowed-tools: ['Read', \"Bash(git:*)\", 'a,b', \"c]d\"]\n",
  "quoted flow item with doubled quote": "allowed-tools: ['it''s', Bash]\n",
  "quoted flow item then colon": 'allowed-tools: ["Read":x]\n',
  "quote spanning lines": "allowed-tools: 'Read\n  Bash'\n",
  "double quote spanning lines": 'allowed-tools: "Read\n  Bash"\n',
  "empty quotes": "allowed-tools: ''\nmodel: \"\"\n",
  // `: ` and colons.
  "colon space in a value": "description: Use it: always\n",
  "colon at the end of a value": "allowed-tools: Read:\n",
  "colon without space": "allowed-tools: Bash(git:*)\n",
  "colon at the start": "allowed-tools: :Read\n",
  "key without space after colon": "allowed-tools:Read\n",
  "space before the colon": "allowed-tools : Read\n",
  "key with trailing spaces and tab": "allowed-tools  :  Read\n",
  "colon in a flow item": "allowed-tools: [Read: x, Bash]\n",
  "url in a flow item": "allowed-tools: [http://x.example/a, Bash]\n",
  "colon space in a continuation": "description: a first line\n  second: line\n",
  "implicit key in a list item": "allowed-tools:\n  - Read: yes\n",
  // Block scalars.
  "literal block": "description: |\n  line one\n  line two\n",
  "literal block at the end, no newline": "description: |\n  line one",
  "folded block": "description: >\n  line one\n  line two\n\n  para\n",
  "strip chomping": "description: |-\n  text\n\n",
  "keep chomping": "description: |+\n  text\n\n",
  "indentation indicator": "description: |2\n   text\n",
  "more-indented folded": "description: >\n  a\n    b\n  c\n",
  "literal leading blank lines": "description: |\n\n\n  text\n",
  "folded leading blank lines": "description: >\n\n  text\n  more\n",
  "block with spaces-only line": "description: |\n  a\n   \n  b\n",
  "block with trailing spaces": "description: |\n  a  \n  b\n",
  "block then a field": "description: |\n  a\n\n\ndisable-model-invocation: true\n",
  "block less indented inside": "description: |\n    a\n  b\n",
  "empty block": "description: |\nallowed-tools: Read\n",
  "block as a list item": "allowed-tools:\n  - |\n    Read\n",
  "block swallowing a key": "description: |\n  text\n  disable-model-invocation: true\n",
  "folded swallowing a key": "description: >-\n  text\n  allowed-tools: Bash\n",
  // Anchors, aliases, tags, merge keys.
  anchor: "allowed-tools: &tools Read\nmetadata:\n  copy: *tools\n",
  "anchor mid-value": "allowed-tools: Read &x\n",
  alias: "x-tools: &t [Bash]\nallowed-tools: *t\n",
  "merge key": "x-base: &b { model: small }\nmetadata:\n  <<: *b\n",
  tag: "disable-model-invocation: !!str true\n",
  "tag on a list": "allowed-tools: !!seq [Read]\n",
  "local tag": "allowed-tools: !x Read\n",
  directive: "!%YAML 1.2\n---\nname: probe-skill\ndescription: d\n",
  "document marker": "...\n",
  "second document": "---\nname: other\n",
  // Flow collections.
  "flow list": "allowed-tools: [Read, Write, Bash(git log:*)]\n",
  "flow list, no spaces": "allowed-tools: [Read,Write]\n",
  "flow list, trailing comma": "allowed-tools: [Read, Write,]\n",
  "flow list, empty item": "allowed-tools: [Read, , Write]\n",
  "flow list, nested": "allowed-tools: [Read, [Bash]]\n",
  "flow list, mapping item": "allowed-tools: [Read, {a: b}]\n",
  "flow list over lines": "allowed-tools: [Read,\n  Write]\n",
  "flow list then text": "allowed-tools: [Read] Write\n",
  "flow list, two closings": "allowed-tools: [Read]]\n",
  "flow list, dash item": "allowed-tools: [-Read, - Write]\n",
  "flow list, question item": "allowed-tools: [?Read]\n",
  "empty flow list": "allowed-tools: []\nexamples: [ ]\n",
  "flow mapping": "metadata: {a: 1, b: [x]}\n",
  "flow list of typed items": "x-list: [1.10, 007, true, ~, null, yes, 0x1F, .inf, -.NaN]\n",
  // Block lists.
  "list at the key's indentation": "allowed-tools:\n- Read\n- Bash\ndisable-model-invocation: true\n",
  "list item continued": "allowed-tools:\n  - Read\n    Bash\n",
  "list item continued at the key's indentation": "allowed-tools:\n- Read\n Bash\n",
  "list item continued less": "allowed-tools:\n  - Read\n Bash\n",
  "list, items misaligned": "allowed-tools:\n  - Read\n   - Bash\n",
  "list, dash alone": "allowed-tools:\n  -\n  - Bash\n",
  "list, dash no space": "allowed-tools:\n  -Read\n  - Bash\n",
  "list of lists": "allowed-tools:\n  - - Read\n",
  "list of mappings": "hooks:\n  - matcher: Bash\n    command: x\n",
  "list then a deeper key": "allowed-tools:\n  - Read\n  x: y\n",
  "value then a list": "allowed-tools: Read\n  - Bash\n",
  "dash value on the key's line": "allowed-tools: - Read\n",
  "dash number": "x-n: -1\nx-m: -x\nx-o: '-'\n",
  // Indentation.
  "indented first key": "!  name: probe-skill\n  description: d\n",
  "nested mapping": "metadata:\n  owner: docs\n  nested:\n    deep: 1\n    deeper:\n      x: y\n",
  "nested mapping misaligned": "metadata:\n  owner: docs\n   tier: 2\n",
  "nested mapping then less": "metadata:\n    owner: docs\n  tier: 2\n",
  "value on the next line": "description:\n  on the next line\n",
  "value on the next line at the same indentation": "description:\nallowed-tools: Read\n",
  "plain continuation": "description: one\n two\n\n three\n",
  "plain continuation with a dash": "description: one\n  - two\n",
  "plain continuation with a hash": "description: one\n  #two\n",
  "plain continuation with a quote": "description: one\n  'two'\n",
  "plain continuation with a document marker": "description: one\n  ---\n",
  "continuation at column 0 with a marker": "description: one\n---\n",
  "deep nesting": `metadata:\n${Array.from({ length: 12 }, (_, i) => `${"  ".repeat(i + 1)}k${i}:`).join("\n")} x\n`,
  // Whitespace and special characters.
  tab: "allowed-tools:\tRead\n",
  "tab in a value": "allowed-tools: Read\tBash\n",
  "tab indentation": "allowed-tools:\n\t- Read\n",
  "trailing spaces": "allowed-tools: Read   \ndisable-model-invocation: true   \n",
  "nbsp after the colon": "allowed-tools:\u00a0Read\n",
  "nbsp as a value": "allowed-tools: \u00a0\n",
  "nbsp before a hash": "allowed-tools: Read\u00a0#Bash\n",
  "ideographic space": "allowed-tools: Read\u3000# x\n",
  "NEL in a value": "allowed-tools: Read\u0085Bash\n",
  "line separator": "allowed-tools: Read\u2028disable-model-invocation: true\n",
  "BOM inside": "allowed-tools: \ufeffRead\n",
  "zero-width space": "allowed-tools: Read\u200b\n",
  "non-BMP": "description: Emoji \u{1f680} and \u{20000}\nallowed-tools: [\u{1f680}]\n",
  "lone high surrogate": "description: a \ud800 b\n",
  "lone low surrogate": "allowed-tools: [Read, \udc00]\n",
  NUL: "allowed-tools: Read\u0000Bash\n",
  DEL: "allowed-tools: Read\u007f\n",
  "carriage return alone": "allowed-tools: Read\rdisable-model-invocation: true\n",
  "very long value": `description: ${"word ".repeat(20_000)}end\n`,
  "very long key": `${"k".repeat(300)}: x\n`,
  "key of 1,025 characters": `${"k".repeat(1025)}: x\n`,
  "very long flow list": `allowed-tools: [${Array.from({ length: 400 }, (_, i) => `T${i}`).join(", ")}]\n`,
  // Booleans, numbers, null.
  "YAML 1.1 booleans":
    "disable-model-invocation: yes\nuser-invocable: off\nx-a: on\nx-b: no\nx-c: Y\nx-d: n\n",
  "core booleans": "disable-model-invocation: True\nuser-invocable: FALSE\nx-a: tRUE\n",
  "quoted boolean": "disable-model-invocation: 'true'\nuser-invocable: \"false\"\n",
  "boolean with text": "disable-model-invocation: true false\n",
  "version-like numbers":
    "version: 1.10\nmetadata:\n  version: 1.0\n  v2: 2.0.1\n  v3: 1e3\n  v4: 012\n  v5: 0o17\n  v6: 0x1f\n  v7: 1_000\n  v8: +1\n  v9: .5\n  v10: 1.\n  v11: -.inf\n  v12: .NaN\n  v13: 0b101\n  v14: 08\n",
  "number as a name": "!name: 1.0\ndescription: d\n",
  "number as a tool": "allowed-tools: 42\n",
  nulls: "allowed-tools: ~\nmodel: null\nx-a: Null\nx-b: NULL\nx-c: nUll\nx-d:\n",
  "null in a list": "allowed-tools:\n  - ~\n  - null\n  - Read\n",
  "null key": "!~: x\nname: probe-skill\ndescription: d\n",
  "boolean key": "!true: x\nname: probe-skill\ndescription: d\n",
  "number key": "!1: x\nname: probe-skill\ndescription: d\n",
  "yes key": "!yes: x\nname: probe-skill\ndescription: d\n",
  // Prototype keys.
  "__proto__ at the top": "__proto__: x\nconstructor: y\n",
  "__proto__ in metadata": "metadata:\n  __proto__:\n    polluted: true\n  toString: x\n",
  "__proto__ with a list": "__proto__:\n  - allowed-tools\n",
  "hasOwnProperty key": "metadata:\n  hasOwnProperty: 1\n",
  // Keys that look like the security fields.
  "camelCase security keys": "allowedTools: Bash\ndisableModelInvocation: true\n",
  "underscored security keys": "allowed_tools: Bash\ndisable_model_invocation: true\n",
  "upper-case security keys": "Allowed-Tools: Bash\nDISABLE-MODEL-INVOCATION: true\n",
  "security keys in metadata": "metadata:\n  allowed-tools: Bash\n  disable-model-invocation: false\n",
  "disallowed-tools shapes": "disallowed-tools:\n- Write\n- Bash(rm:*)\nallowed-tools: [Read]\n",
};

function fileOf(probe: string): string {
  const yaml = probe.startsWith("!") ? probe.slice(1) : BASE + probe;
  return `---\n${yaml}${yaml.endsWith("\n") ? "" : "\n"}---\n\nUse it with $ARGUMENTS.\n`;
}

describe("fast frontmatter readers = the full path", () => {
  for (const [name, probe] of Object.entries(PROBES)) {
    it(name, () => {
      const text = fileOf(probe);
      for (const input of [text, Buffer.from(text, "utf8"), text.replace(/\n/g, "\r\n"), `\ufeff${text}`]) {
        for (const mode of ["lenient", "strict"] as const) {
          const options = { path: "/skills/probe-skill/SKILL.md", mode };
          expect(parseSkillWith(input, options, true)).toStrictEqual(parseSkillWith(input, options, false));
        }
      }
    });
  }
});

/** A seeded generator of nested frontmatters near the fast readers' edges (indentation off by one, block scalars, lists at the key's column). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const KEYS = [
  "allowed-tools",
  "disable-model-invocation",
  "user-invocable",
  "metadata",
  "description",
  "x",
  "hooks",
  "__proto__",
];
const SCALARS = [
  "Read",
  "Bash(git:*)",
  "true",
  "yes",
  "~",
  "1.10",
  "007",
  "-1",
  "a:b",
  "a#b",
  "'q'",
  '"q"',
  "[a, b]",
  "[]",
  "it's",
  "é",
  "\u{1f680}",
  "-x",
  "a,b",
];
const BLOCK_LINES = ["text", "# not a comment", "key: value", "- item", "", "  more", "---x", "x "];

function generated(random: () => number): string {
  const pick = <T>(from: readonly T[]): T => from[Math.floor(random() * from.length)] as T;
  const jitter = () => {
    const x = random();
    return x < 0.08 ? -1 : x < 0.16 ? 1 : 0;
  };
  const value = (indent: number, depth: number): string => {
    const x = random();
    if (depth < 3 && x < 0.2) {
      const inner = indent + 2 + jitter();
      let out = "\n";
      for (let i = 0, n = 1 + Math.floor(random() * 3); i < n; i++)
        out += `${" ".repeat(Math.max(0, inner + (i > 0 ? jitter() : 0)))}${pick(KEYS)}:${value(inner, depth + 1)}`;
      return out;
    }
    if (x < 0.4) {
      const inner = random() < 0.3 ? indent : indent + 2 + jitter();
      let out = "\n";
      for (let i = 0, n = 1 + Math.floor(random() * 3); i < n; i++) {
        out += `${" ".repeat(Math.max(0, inner))}${random() < 0.95 ? "- " : "-"}${pick(SCALARS)}`;
        if (random() < 0.15) out += `\n${" ".repeat(Math.max(0, inner + 1 + jitter()))}${pick(SCALARS)}`;
        out += "\n";
      }
      return out;
    }
    if (x < 0.6) {
      let out = ` ${pick(["|", ">", "|-", ">-", "|+", "| "])}\n`;
      for (let i = 0, n = 1 + Math.floor(random() * 4); i < n; i++) {
        const line = pick(BLOCK_LINES);
        out += `${line === "" ? "" : " ".repeat(indent + 2 + (i > 0 ? jitter() : 0)) + line}\n`;
      }
      return random() < 0.3 ? `${out}\n` : out;
    }
    let out = ` ${pick(SCALARS)}`;
    if (random() < 0.2)
      out += `\n${random() < 0.3 ? "\n" : ""}${" ".repeat(indent + 1 + Math.floor(random() * 3))}${pick(SCALARS)}`;
    return `${out}\n`;
  };
  let yaml = "";
  for (let j = 0, n = 1 + Math.floor(random() * 3); j < n; j++) yaml += `${pick(KEYS)}:${value(0, 0)}`;
  return yaml;
}

describe("fast frontmatter readers = the full path, on generated frontmatters", () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}`, () => {
      const random = seeded(seed);
      for (let i = 0; i < 400; i++) {
        const text = fileOf(generated(random));
        for (const mode of ["lenient", "strict"] as const) {
          const options = { path: "/skills/probe-skill/SKILL.md", mode };
          expect(parseSkillWith(text, options, true), text).toStrictEqual(
            parseSkillWith(text, options, false),
          );
        }
      }
    }, 300_000);
  }
});
