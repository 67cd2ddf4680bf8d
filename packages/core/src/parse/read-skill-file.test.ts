import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, open, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SKILL_FILE_BYTES } from "./limits.js";
import { readSkillFile } from "./read-skill-file.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "skillshelf-read-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function skillFile(
  folder: string,
  content: string | Uint8Array,
  fileName = "SKILL.md",
): Promise<string> {
  await mkdir(join(root, folder), { recursive: true });
  const path = join(root, folder, fileName);
  await writeFile(path, content);
  return path;
}

/** A file of `size` bytes that starts like a valid skill; sparse, so it costs no disk. */
async function bigFile(folder: string, size: number): Promise<string> {
  const path = await skillFile(folder, "---\nname: big\ndescription: d\n---\n");
  const handle = await open(path, "r+");
  await handle.truncate(size);
  await handle.close();
  return path;
}

describe("readSkillFile", () => {
  it("reads and parses a skill, checking the name against its folder", async () => {
    const path = await skillFile("pdf-tools", "---\nname: pdf-tools\ndescription: Read PDFs.\n---\nBody\n");
    const result = await readSkillFile(path);
    expect(result.diagnostics).toEqual([]);
    expect(result.skill).toMatchObject({ name: "pdf-tools", file: path, body: "Body", bodyLine: 5 });
  });

  it("uses `path` from the options for reporting when given", async () => {
    const path = await skillFile("other", "---\nname: pdf-tools\ndescription: Read PDFs.\n---\n");
    const result = await readSkillFile(path, { path: "skills/pdf-tools/SKILL.md" });
    expect(result.skill?.file).toBe("skills/pdf-tools/SKILL.md");
    expect(result.diagnostics).toEqual([]);
  });

  it("refuses a 20 MB file with `file-too-large`, from its size alone", async () => {
    const path = await bigFile("huge", 20 * 1024 * 1024);
    const result = await readSkillFile(path);
    expect(result.skill).toBeUndefined();
    expect(result.diagnostics).toMatchObject([
      {
        code: "file-too-large",
        severity: "error",
        line: 1,
        file: path,
        message: expect.stringContaining("20971520"),
      },
    ]);
  });

  it("never reads an oversized file whole: an 8 GiB file is refused as fast as a small one", async () => {
    // Reading it would exceed the largest Buffer Node allows; refusing it proves it is not read.
    const path = await bigFile("enormous", 8 * 1024 ** 3);
    const result = await readSkillFile(path);
    expect(result.diagnostics.map((d) => d.code)).toEqual(["file-too-large"]);
  });

  it("accepts a file exactly at the cap and refuses one byte over; the cap is configurable", async () => {
    const atCap = await bigFile("at-cap", MAX_SKILL_FILE_BYTES);
    expect((await readSkillFile(atCap, { folderName: false })).diagnostics.map((d) => d.code)).not.toContain(
      "file-too-large",
    );
    const over = await bigFile("over-cap", MAX_SKILL_FILE_BYTES + 1);
    expect((await readSkillFile(over)).diagnostics.map((d) => d.code)).toEqual(["file-too-large"]);
    const small = await skillFile("small-cap", "---\nname: small-cap\ndescription: d\n---\n");
    expect((await readSkillFile(small, { maxBytes: 10 })).diagnostics.map((d) => d.code)).toEqual([
      "file-too-large",
    ]);
  });

  it("a missing file, a folder, and a dangling link are `read-error`s, not exceptions", async () => {
    expect((await readSkillFile(join(root, "nope", "SKILL.md"))).diagnostics).toMatchObject([
      { code: "read-error", message: expect.stringContaining("ENOENT") },
    ]);
    await mkdir(join(root, "a-folder"), { recursive: true });
    expect((await readSkillFile(join(root, "a-folder"))).diagnostics).toMatchObject([
      { code: "read-error", message: "not a regular file" },
    ]);
    await mkdir(join(root, "dangling"), { recursive: true });
    await symlink(join(root, "missing-target"), join(root, "dangling", "SKILL.md"));
    expect((await readSkillFile(join(root, "dangling", "SKILL.md"))).diagnostics.map((d) => d.code)).toEqual([
      "read-error",
    ]);
  });

  it.skipIf(process.platform === "win32")("a FIFO is refused without blocking on it", async () => {
    await mkdir(join(root, "fifo"), { recursive: true });
    const path = join(root, "fifo", "SKILL.md");
    try {
      execFileSync("mkfifo", [path]);
    } catch {
      return; // no mkfifo on this machine: nothing to prove here
    }
    expect((await readSkillFile(path)).diagnostics).toMatchObject([
      { code: "read-error", message: "not a regular file" },
    ]);
  });

  it("accepts a lower-case skill.md the same way", async () => {
    const path = await skillFile("lower", "---\nname: lower\ndescription: d\n---\n", "skill.md");
    expect((await readSkillFile(path)).skill?.name).toBe("lower");
  });
});
