import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";

async function write(root: string, rel: string, text: string): Promise<void> {
  const file = path.join(root, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

/** Seed 004's shelves: `domain:` in the file, or the category folder a skill sits in. */
async function shelves(): Promise<{ root: string; home: string }> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-domain-")));
  await write(
    root,
    ".skillshelf/skills/code/safe-refactor/SKILL.md",
    "---\nname: safe-refactor\ndescription: Refactor safely.\n---\nb\n",
  );
  await write(
    root,
    ".skillshelf/skills/ops/deploy-check/SKILL.md",
    "---\nname: deploy-check\ndescription: Check a deploy.\n---\nb\n",
  );
  await write(
    root,
    ".skillshelf/skills/log-analyze/SKILL.md",
    "---\nname: log-analyze\ndescription: Read logs.\ndomain: Ops\n---\nb\n",
  );
  await write(
    root,
    ".skillshelf/skills/notes/SKILL.md",
    "---\nname: notes\ndescription: Take notes.\n---\nb\n",
  );
  return { root, home: path.join(root, "home") };
}

describe("skillshelf list --domain", () => {
  it("shows each skill's domain and keeps only the skills of the one asked for", async () => {
    const { root, home } = await shelves();
    const all = capture(root, { home });
    expect(await main(["list", "--json", "--no-builtins"], all.ctx)).toBe(0);
    const json = JSON.parse(all.out()) as { skills: Array<{ name: string; domain?: string }> };
    expect(json.skills.map((s) => [s.name, s.domain])).toEqual([
      ["deploy-check", "ops"],
      ["log-analyze", "Ops"],
      ["notes", undefined],
      ["safe-refactor", "code"],
    ]);

    const ops = capture(root, { home });
    expect(await main(["list", "--no-builtins", "--domain", "ops"], ops.ctx)).toBe(0);
    const lines = ops.out().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+SCOPE\s+DOMAIN\s+FILE$/);
    expect(lines.slice(1, 3).map((l) => l.split(/\s+/).slice(0, 3))).toEqual([
      ["deploy-check", "project", "ops"],
      ["log-analyze", "project", "Ops"],
    ]);
    expect(ops.out()).not.toContain("safe-refactor");
    expect(ops.out()).toContain("2 skills (2 project)");
  });
});
