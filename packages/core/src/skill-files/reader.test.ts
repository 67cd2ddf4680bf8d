/**
 * The confined reader on real files: every way out of the skill folder is refused, a large
 * file comes a page at a time, a binary file is described and never dumped.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SkillFileResult } from "../types.js";
import { PAGE_BYTES, readSkillFilePage } from "./reader.js";

let base: string;
let dir: string;

async function write(rel: string, data: string | Uint8Array) {
  const file = path.join(dir, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, data);
  return file;
}

const ok = (r: SkillFileResult) => {
  if (r.status !== "success") throw new Error(`expected success, got ${r.error_type}: ${r.message}`);
  return r.data;
};
const errorOf = (r: SkillFileResult) => (r.status === "error" ? r.error_type : "success");

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-reader-")));
  dir = path.join(base, "skills", "pdf");
  await write("SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\nRead references/forms.md.\n");
  await write("references/forms.md", "# Forms\n\nFill the fields in order.\n");
  await fs.writeFile(path.join(base, "secret.txt"), "TOKEN=abc");
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe("readSkillFilePage", () => {
  it("reads a reference by its relative path", () => {
    const data = ok(readSkillFilePage("pdf", dir, "references/forms.md"));
    expect(data).toMatchObject({ path: "references/forms.md", kind: "text", mediaType: "text/markdown" });
    expect(data.content).toBe("# Forms\n\nFill the fields in order.\n");
    expect(data.nextOffset).toBeNull();
    expect(ok(readSkillFilePage("pdf", dir, "./references//forms.md")).path).toBe("references/forms.md");
  });

  it("refuses traversal, absolute paths and home paths", () => {
    for (const bad of [
      "../secret.txt",
      "references/../../secret.txt",
      "..\\secret.txt",
      path.join(base, "secret.txt"),
      "/etc/passwd",
      "~/.ssh/id_rsa",
      "C:\\Windows\\win.ini",
      "",
      "references/\u0000forms.md",
    ]) {
      const result = readSkillFilePage("pdf", dir, bad);
      expect(errorOf(result), bad).toBe("INVALID_PATH");
    }
    expect(errorOf(readSkillFilePage("pdf", dir, 42))).toBe("INVALID_PATH");
  });

  it("refuses a link that leads out of the folder, and follows one that stays inside", async () => {
    await fs.symlink(path.join(base, "secret.txt"), path.join(dir, "references", "leak.md"));
    await fs.symlink(base, path.join(dir, "up"));
    await fs.symlink(path.join(dir, "references", "forms.md"), path.join(dir, "alias.md"));
    expect(errorOf(readSkillFilePage("pdf", dir, "references/leak.md"))).toBe("INVALID_PATH");
    expect(errorOf(readSkillFilePage("pdf", dir, "up/secret.txt"))).toBe("INVALID_PATH");
    expect(ok(readSkillFilePage("pdf", dir, "alias.md")).content).toContain("# Forms");
  });

  it("refuses hidden files, also reached through a link", async () => {
    await write(".env", "KEY=1");
    await write(".git/config", "[core]");
    await fs.symlink(path.join(dir, ".env"), path.join(dir, "notes.md"));
    expect(errorOf(readSkillFilePage("pdf", dir, ".env"))).toBe("INVALID_PATH");
    expect(errorOf(readSkillFilePage("pdf", dir, ".git/config"))).toBe("INVALID_PATH");
    expect(errorOf(readSkillFilePage("pdf", dir, "notes.md"))).toBe("INVALID_PATH");
  });

  it("says when a file is missing or a folder", () => {
    expect(errorOf(readSkillFilePage("pdf", dir, "references/none.md"))).toBe("NOT_FOUND");
    expect(errorOf(readSkillFilePage("pdf", dir, "references"))).toBe("NOT_A_FILE");
  });

  it("never opens a FIFO (it would block the host)", async () => {
    try {
      execFileSync("mkfifo", [path.join(dir, "pipe.md")]);
    } catch {
      return; // no mkfifo on this platform
    }
    expect(errorOf(readSkillFilePage("pdf", dir, "pipe.md"))).toBe("NOT_A_FILE");
  });

  it("pages a 20 MB reference 64 KiB at a time", async () => {
    const line = `${"0123456789abcdef ".repeat(4)}\n`;
    const big = line.repeat(Math.ceil((20 * 1024 * 1024) / line.length));
    await write("references/big.md", big);
    const first = ok(readSkillFilePage("pdf", dir, "references/big.md"));
    expect(first.size).toBe(Buffer.byteLength(big));
    expect(Buffer.byteLength(first.content ?? "")).toBe(PAGE_BYTES);
    expect(first.nextOffset).toBe(PAGE_BYTES);
    const second = ok(readSkillFilePage("pdf", dir, "references/big.md", { offset: first.nextOffset }));
    expect(second.offset).toBe(PAGE_BYTES);
    expect(big.slice(PAGE_BYTES, PAGE_BYTES * 2)).toBe(second.content);
    // A bigger limit than a page is capped at a page.
    const capped = ok(readSkillFilePage("pdf", dir, "references/big.md", { limit: 10_000_000 }));
    expect(Buffer.byteLength(capped.content ?? "")).toBe(PAGE_BYTES);
    const last = ok(readSkillFilePage("pdf", dir, "references/big.md", { offset: first.size - 10 }));
    expect(last.nextOffset).toBeNull();
    expect(errorOf(readSkillFilePage("pdf", dir, "references/big.md", { offset: first.size + 1 }))).toBe(
      "INVALID_ARGUMENTS",
    );
    expect(errorOf(readSkillFilePage("pdf", dir, "references/big.md", { offset: -1 }))).toBe(
      "INVALID_ARGUMENTS",
    );
  });

  it("never splits a character across pages", async () => {
    const text = "é".repeat(PAGE_BYTES); // two bytes each
    await write("references/accents.md", text);
    let offset: number | null = 0;
    let whole = "";
    while (offset !== null) {
      const page = ok(readSkillFilePage("pdf", dir, "references/accents.md", { offset, limit: 1001 }));
      whole += page.content;
      offset = page.nextOffset;
    }
    expect(whole).toBe(text);
    // An offset inside a character starts at the next whole one.
    const inside = ok(readSkillFilePage("pdf", dir, "references/accents.md", { offset: 1, limit: 300 }));
    expect(inside.offset).toBe(2);
    expect(inside.content?.startsWith("é")).toBe(true);
  });

  it("describes a binary file instead of dumping it", async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(5000, 7),
    ]);
    await write("assets/logo.png", png);
    await write("assets/blob.bin", Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0x81]));
    const image = ok(readSkillFilePage("pdf", dir, "assets/logo.png"));
    expect(image).toMatchObject({ kind: "binary", mediaType: "image/png", size: png.length });
    expect(image.content).toBeUndefined();
    const blob = ok(readSkillFilePage("pdf", dir, "assets/blob.bin"));
    expect(blob).toMatchObject({ kind: "binary", mediaType: "application/octet-stream" });
  });
});
