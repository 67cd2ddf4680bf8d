import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createShelf } from "../shelf.js";
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
    const options = { root, userDirs: [], builtinRoles: false, events: false } as const;
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
