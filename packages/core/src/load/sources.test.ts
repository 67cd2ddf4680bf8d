import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveSources } from "./sources.js";

describe("resolveSources", () => {
  const root = path.resolve("/work/project");
  const home = path.resolve("/home/me");

  it("defaults: project folders over user folders, in the documented order", () => {
    expect(resolveSources({ root, home })).toEqual([
      { dir: path.join(root, ".skillshelf/skills"), scope: "project", rank: 0 },
      { dir: path.join(root, ".agents/skills"), scope: "project", rank: 1 },
      { dir: path.join(home, ".skillshelf/skills"), scope: "user", rank: 2 },
      { dir: path.join(home, ".agents/skills"), scope: "user", rank: 3 },
    ]);
  });

  it("claude: true appends .claude/skills to each scope", () => {
    const dirs = resolveSources({ root, home, claude: true }).map((s) => [s.scope, s.dir]);
    expect(dirs).toContainEqual(["project", path.join(root, ".claude/skills")]);
    expect(dirs).toContainEqual(["user", path.join(home, ".claude/skills")]);
    expect(dirs.at(2)).toEqual(["project", path.join(root, ".claude/skills")]);
    expect(dirs.at(-1)).toEqual(["user", path.join(home, ".claude/skills")]);
  });

  it("explicit folders: relative to root, ~ to home, [] disables a scope, duplicates kept once", () => {
    const sources = resolveSources({
      root,
      home,
      projectDirs: ["skills", "/abs/skills", "skills"],
      userDirs: ["~/mine", "~"],
    });
    expect(sources.map((s) => [s.scope, s.dir])).toEqual([
      ["project", path.join(root, "skills")],
      ["project", path.resolve("/abs/skills")],
      ["user", path.join(home, "mine")],
      ["user", home],
    ]);
    expect(sources.map((s) => s.rank)).toEqual([0, 1, 2, 3]);
    expect(resolveSources({ root, home, projectDirs: [], userDirs: [] })).toEqual([]);
  });

  it("a folder listed as project and user counts as project only", () => {
    const sources = resolveSources({ root, home, projectDirs: ["~/shared"], userDirs: ["~/shared"] });
    expect(sources).toEqual([{ dir: path.join(home, "shared"), scope: "project", rank: 0 }]);
  });
});
