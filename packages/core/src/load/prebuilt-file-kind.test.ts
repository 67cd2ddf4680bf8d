import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createShelf } from "../shelf.js";
import { encodeRawPrebuiltFile, PrebuiltFormatError, readPrebuiltFile } from "./prebuilt-format.js";
import { tempDir, writeSkill } from "./test-utils/fixtures.js";

describe("the prebuilt shelf's file", () => {
  it.skipIf(process.platform === "win32")(
    "a FIFO where the prebuilt shelf goes is not used, and the start does not wait on it",
    async () => {
      const root = await tempDir("skillshelf-prebuilt-fifo-");
      const skills = path.join(root, ".skillshelf/skills");
      await writeSkill(skills, "notes");
      execFileSync("mkfifo", [path.join(root, ".skillshelf/prebuilt-shelf.bin")]);
      const shelf = await createShelf({ root, userDirs: [], builtinRoles: false, events: false });
      expect(shelf.skills().map((s) => s.name)).toEqual(["notes"]);
      const unusable = shelf.diagnostics().filter((d) => d.code === "prebuilt-unusable");
      expect(unusable.map((d) => d.message)).toEqual([expect.stringMatching(/not a regular file/u)]);
      await shelf.close();
    },
  );

  it("a folder where the prebuilt shelf goes is not used", async () => {
    const root = await tempDir("skillshelf-prebuilt-dir-");
    const skills = path.join(root, ".skillshelf/skills");
    await writeSkill(skills, "notes");
    await fs.mkdir(path.join(root, ".skillshelf/prebuilt-shelf.bin"));
    const shelf = await createShelf({ root, userDirs: [], builtinRoles: false, events: false });
    expect(shelf.skills().map((s) => s.name)).toEqual(["notes"]);
    expect(shelf.diagnostics().map((d) => d.code)).toContain("prebuilt-unusable");
    await shelf.close();
  });

  describe("its header and int32 section, read on their own", () => {
    const header = (length: number) => {
      const bytes = Buffer.alloc(12);
      bytes.write("SKSHELF1", 0, "latin1");
      bytes.writeUInt32LE(length, 8);
      return bytes;
    };
    const cases: Array<[string, Buffer, RegExp]> = [
      ["a header alone, declaring a document of 4 GiB", header(0xffffffff), /the document is cut short/u],
      [
        "a header declaring one byte more than there is",
        Buffer.concat([header(3), Buffer.from("{}")]),
        /cut short/u,
      ],
      ["a header cut short", header(0).subarray(0, 10), /SKSHELF1/u],
      [
        "a section of 6 bytes after an odd-length document",
        Buffer.concat([encodeRawPrebuiltFile("{}"), Buffer.alloc(6)]),
        /not whole int32s/u,
      ],
      ["an empty file", Buffer.alloc(0), /SKSHELF1/u],
    ];
    for (const [label, bytes, reason] of cases) {
      it(label, async () => {
        const file = path.join(await tempDir("skillshelf-prebuilt-bytes-"), "prebuilt-shelf.bin");
        await fs.writeFile(file, bytes);
        expect(() => readPrebuiltFile(file, 1024 * 1024)).toThrow(PrebuiltFormatError);
        expect(() => readPrebuiltFile(file, 1024 * 1024)).toThrow(reason);
      });
    }

    it("an odd-length document and its padding: the section is the int32s after the padding, in memory of its own", async () => {
      const ints = Int32Array.from([1, -2, 0x7fffffff]);
      const file = path.join(await tempDir("skillshelf-prebuilt-bytes-"), "prebuilt-shelf.bin");
      await fs.writeFile(file, encodeRawPrebuiltFile('{"a":1}', ints));
      const parts = readPrebuiltFile(file, 1024 * 1024);
      expect(parts.json).toBe('{"a":1}');
      expect([...parts.ints]).toEqual([1, -2, 0x7fffffff]);
      expect(parts.ints.byteOffset).toBe(0);
      expect(parts.ints.buffer.byteLength).toBe(12);
    });
  });
});
