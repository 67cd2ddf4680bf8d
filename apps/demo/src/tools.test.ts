import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "./sandbox.js";
import { createDemoTools } from "./tools.js";

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.dispose());

const tool = (name: string) => createDemoTools(sandbox).find((t) => t.name === name)!;

describe("the demo's tools", () => {
  it("work on the sandbox copy, which has the scripted git history", async () => {
    expect(sandbox.git).toBe(true);
    const log = await tool("git_log").execute({});
    expect(log.split("\n").map((l) => l.replace(/^\w+ /, ""))).toEqual([
      "chore: meeting notes",
      "feat!: note dates are ISO strings (BREAKING)",
      "fix: trim note titles before saving",
      "feat: search notes by tag",
      "release: v1.0.0",
    ]);
    expect(await tool("list_files").execute({ folder: "." })).not.toMatch(/\.skillshelf|\.git/);
    expect(await tool("grep").execute({ pattern: 'createHash\\("md5' })).toMatch(
      /^src\/auth\.ts:7: return createHash\("md5"\)/,
    );
  });

  it("refuse any path outside the sandbox, and writes into hidden folders", async () => {
    await expect(tool("read_file").execute({ path: "../../etc/passwd" })).rejects.toThrow(
      /outside the workspace/,
    );
    await expect(tool("write_file").execute({ path: "/tmp/x.txt", content: "x" })).rejects.toThrow(
      /outside the workspace/,
    );
    await expect(
      tool("write_file").execute({ path: ".skillshelf/skills/release-notes/SKILL.md", content: "x" }),
    ).rejects.toThrow(/hidden folder/);
    await expect(tool("rename_file").execute({ from: "README.md", to: "../README.md" })).rejects.toThrow(
      /outside/,
    );
    await tool("write_file").execute({ path: "NOTES.md", content: "ok" });
    expect(await readFile(join(sandbox.dir, "NOTES.md"), "utf8")).toBe("ok");
  });
});
