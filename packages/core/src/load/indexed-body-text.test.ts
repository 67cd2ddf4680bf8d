import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createShelf, type ShelfOptions } from "../shelf.js";
import { BODY_HEAD_CHARS, indexedBodyText } from "./indexed-body-text.js";
import { buildPrebuiltShelf } from "./prebuilt-build.js";
import { decodePrebuiltFile, encodeRawPrebuiltFile } from "./prebuilt-format.js";
import { tempDir, writeSkill } from "./test-utils/fixtures.js";

describe("what stage 1 reads of a body", () => {
  it("is the body's start as written when it holds no code, URL, long run or repeated line", () => {
    const body = "# Report\n\nCollect the figures.\n\n| Topic | File |\n|---|---|\n| Sales | sales.md |";
    expect(indexedBodyText(body)).toBe(body);
    const long = "Collect the figures, then write the summary. ".repeat(100);
    expect(indexedBodyText(long)).toBe(long.slice(0, BODY_HEAD_CHARS));
  });

  it("leaves out fenced code blocks, ``` or ~~~, closed or still open at the cut", () => {
    expect(indexedBodyText("Intro.\n```bash\nnpm install left-pad\n```\nAfter.")).toBe("Intro.\nAfter.");
    expect(indexedBodyText("Intro.\n  ~~~~\ncode\n~~~\nstill code\n~~~~~\nAfter.")).toBe("Intro.\nAfter.");
    // A fence of backticks is not closed by tildes, nor by a shorter fence.
    expect(indexedBodyText("A.\n````\nx\n```\n~~~~\ny\n````\nB.")).toBe("A.\nB.");
    expect(indexedBodyText("Intro.\n```ts\nconst cut = 'at the end")).toBe("Intro.");
    // Indented four spaces, it is not a fence.
    expect(indexedBodyText("A.\n    ```\nB.")).toBe("A.\n    ```\nB.");
  });

  it("leaves out URLs and runs of 32 or more characters without a space", () => {
    expect(indexedBodyText("See https://example.com/docs?a=1 for more.")).toBe("See   for more.");
    expect(indexedBodyText("Hash d41d8cd98f00b204e9800998ecf8427e ok")).toBe("Hash   ok");
    expect(indexedBodyText(`Path ${"a".repeat(31)} kept`)).toBe(`Path ${"a".repeat(31)} kept`);
  });

  it("keeps each non-blank line once, compared without the spaces around it; blank lines stay", () => {
    expect(indexedBodyText("Use it.\n\n- step\n\n  - step  \nUse it.\nDone.")).toBe(
      "Use it.\n\n- step\n\nDone.",
    );
  });

  it("looks at the first 3,000 characters only, and keeps a surrogate pair cut there whole", () => {
    const prefix = "word ".repeat(599) + "abcd"; // 2,999 characters
    expect(indexedBodyText(`${prefix}😀 and more`)).toBe(`${prefix}😀`);
    expect(indexedBodyText(`${"x ".repeat(1_500)}\`\`\`\ncode`)).toBe("x ".repeat(1_500));
  });
});

/** The definition, written plainly (bench/routing-body-variants.ts's variant): what the module must equal. */
function reference(body: string): string {
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of body.slice(0, BODY_HEAD_CHARS).split("\n")) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== undefined) {
      if (open?.[1]?.startsWith(fence)) fence = undefined;
      continue;
    }
    if (open) fence = open[1];
    else kept.push(line);
  }
  const text = kept
    .join("\n")
    .replace(/\b(?:https?|ftp):\/\/\S+/g, " ")
    .replace(/\S{32,}/g, " ");
  const seen = new Set<string>();
  return text
    .split("\n")
    .filter((line) => {
      const key = line.trim();
      if (key === "" || !seen.has(key)) return seen.add(key) !== undefined;
      return false;
    })
    .join("\n");
}

describe("what stage 1 reads of a body, against its plain definition", () => {
  it("agrees on random texts of words, spaces of every kind, fences, URLs and repeated lines", () => {
    const pieces = [
      "word",
      "x".repeat(31),
      "y".repeat(32),
      "z".repeat(40),
      "```",
      "~~~~",
      "  ```ts",
      "http://a.b/c",
      "ftp://q",
      "-",
      "Собрать",
      "😀",
      " ",
      "\u00a0",
      "\u3000",
      "\u2028",
      "\ufeff",
      "\t",
      "\n",
      "\n",
      "\n\n",
      "| a | b |",
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let k = 0; k < 3_000; k++) {
      let body = "";
      const length = Math.floor(next() * 400);
      for (let i = 0; i < length; i++) body += pieces[Math.floor(next() * pieces.length)];
      // Most are short; cut where the surrogate pair rule cannot apply, as the reference does.
      if (body.length > BODY_HEAD_CHARS) body = body.replaceAll("😀", "e");
      expect(indexedBodyText(body), JSON.stringify(body)).toBe(reference(body));
    }
  });
});

describe("a loaded shelf's index reads the same text", () => {
  it("a word only inside a body's code block or URL does not match the skill; one in its prose does", async () => {
    const root = await tempDir();
    const dir = path.join(root, ".skillshelf/skills");
    await writeSkill(
      dir,
      "invoices",
      "---\nname: invoices\ndescription: Prepares invoices.\n---\n\n# Invoices\n\nReconcile the ledger first.\n\n```sh\nkubectl rollout restart\n```\n\nDocs: https://example.com/zanzibar\n",
    );
    const shelf = await createShelf({
      root,
      userDirs: [],
      builtinRoles: false,
      events: false,
      matcher: { minScore: 0 },
    });
    try {
      expect(shelf.match("reconcile the ledger").candidates.map((c) => c.name)).toEqual(["invoices"]);
      expect(shelf.match("kubectl rollout restart").candidates).toEqual([]);
      expect(shelf.match("zanzibar").candidates).toEqual([]);
    } finally {
      await shelf.close();
    }
  });

  it("a prebuilt shelf whose terms were read the old way (stage-1 terms 2: bodies read whole) is refused, not mixed", async () => {
    const root = await tempDir("skillshelf-prebuilt-");
    const dir = path.join(root, ".skillshelf/skills");
    await writeSkill(
      dir,
      "deploy",
      "---\nname: deploy\ndescription: Deploys the service.\n---\n\nRoll out with care.\n\n```sh\nkubectl rollout restart deploy/api\n```\n",
    );
    await buildPrebuiltShelf({ root, userDirs: [] });
    const file = path.join(root, ".skillshelf/prebuilt-shelf.bin");
    const { json, ints } = decodePrebuiltFile(await fs.readFile(file));
    const doc = JSON.parse(json) as { index: { probe: string[] } };
    // What a build before this reading wrote: the same analysis otherwise.
    doc.index.probe = doc.index.probe.map((line) =>
      line.startsWith("stage-1 terms ") ? "stage-1 terms 2" : line,
    );
    await fs.writeFile(file, encodeRawPrebuiltFile(JSON.stringify(doc), ints.slice()));
    const options: ShelfOptions = { root, userDirs: [], builtinRoles: false, events: false };
    const shelf = await createShelf(options);
    const scanned = await createShelf({ ...options, prebuilt: false });
    try {
      const unusable = shelf.diagnostics().filter((d) => d.code === "prebuilt-unusable");
      expect(unusable.map((d) => d.message)).toEqual([
        expect.stringMatching(/index terms were read by another version of the analysis/u),
      ]);
      expect(shelf.match("kubectl rollout restart")).toEqual(scanned.match("kubectl rollout restart"));
      expect(shelf.match("roll out the service")).toEqual(scanned.match("roll out the service"));
    } finally {
      await shelf.close();
      await scanned.close();
    }
  });
});
