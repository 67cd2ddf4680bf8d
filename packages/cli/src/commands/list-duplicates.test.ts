import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";

async function write(root: string, rel: string, text: string): Promise<string> {
  const file = path.join(root, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return file;
}

const skill = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: Does ${name}.\n${extra}---\n\nBody.\n`;

describe("skillshelf list --group-duplicates", () => {
  it("lists the names with more than one file, most files first, with the file used", async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-")));
    for (const repo of ["a", "b", "c", "d", "e"]) {
      await write(root, `.skillshelf/skills/${repo}/code-review/SKILL.md`, skill("code-review"));
    }
    await write(root, ".skillshelf/skills/x/deploy/SKILL.md", skill("deploy"));
    await write(root, ".skillshelf/skills/y/deploy/SKILL.md", skill("deploy"));
    await write(root, ".skillshelf/skills/solo/SKILL.md", skill("solo"));
    const researcher = await write(root, ".skillshelf/skills/researcher/SKILL.md", skill("researcher"));

    const cap = capture(root, { home: path.join(root, "home") });
    expect(await main(["list", "--group-duplicates"], cap.ctx)).toBe(0);
    expect(cap.out()).toBe(
      [
        "code-review  5 files; used: project .skillshelf/skills/a/code-review/SKILL.md",
        "    ignored project .skillshelf/skills/b/code-review/SKILL.md",
        "    ignored project .skillshelf/skills/c/code-review/SKILL.md",
        "    ignored project .skillshelf/skills/d/code-review/SKILL.md",
        "    … and 1 more (--json lists them all)",
        "deploy  2 files; used: project .skillshelf/skills/x/deploy/SKILL.md",
        "    ignored project .skillshelf/skills/y/deploy/SKILL.md",
        "researcher  2 files; used: builtin builtin:researcher",
        "    refused (a role) project .skillshelf/skills/researcher/SKILL.md",
        "",
        "3 names defined by more than one file; 6 files not used.",
        "",
      ].join("\n"),
    );

    const json = capture(root, { home: path.join(root, "home") });
    expect(await main(["list", "--group-duplicates", "--json"], json.ctx)).toBe(0);
    const { duplicates } = JSON.parse(json.out()) as {
      duplicates: Array<{ name: string; files: number; ignored: Array<{ file: string; reason: string }> }>;
    };
    expect(duplicates.map((g) => [g.name, g.files, g.ignored.length])).toEqual([
      ["code-review", 5, 4],
      ["deploy", 2, 1],
      ["researcher", 2, 1],
    ]);
    expect(duplicates[2]!.ignored).toEqual([{ file: researcher, scope: "project", reason: "role-shadowed" }]);
  });
});
