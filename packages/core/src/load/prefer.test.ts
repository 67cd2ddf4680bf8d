import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createShelf } from "../shelf.js";

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function twoCopies() {
  const root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-prefer-"));
  roots.push(root);
  for (const [folder, body] of [
    ["a/code-review", "Copy A."],
    ["team/code-review", "Copy B."],
  ] as const) {
    const dir = path.join(root, ".skillshelf", "skills", folder);
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, "SKILL.md"),
      `---\nname: code-review\ndescription: Review code.\n---\n${body}\n`,
    );
  }
  return root;
}

describe("createShelf({ prefer })", () => {
  it("pins which copy of a name wins, and the duplicate diagnostic says so", async () => {
    const root = await twoCopies();
    const plain = await createShelf({ root, userDirs: [], events: false });
    expect(plain.get("code-review")?.body).toContain("Copy A.");
    const pinned = await createShelf({
      root,
      userDirs: [],
      events: false,
      prefer: { "code-review": ".skillshelf/skills/team/code-review" },
    });
    expect(pinned.get("code-review")?.body).toContain("Copy B.");
    expect(
      pinned.diagnostics().some((d) => d.code === "duplicate-name" && d.message.includes("prefer")),
    ).toBe(true);
  });
});
