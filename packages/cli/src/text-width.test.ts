import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "./main.js";
import { capture } from "./test-utils/capture.js";
import { displayWidth, padEndColumns, padStartColumns } from "./text-width.js";

describe("display width", () => {
  it("counts a CJK character or an emoji as two columns, a combining mark and a colour code as none", () => {
    expect(displayWidth("deploy")).toBe(6);
    expect(displayWidth("查询天气")).toBe(8);
    expect(displayWidth("e\u0301")).toBe(1);
    expect(displayWidth("\u001b[1mab\u001b[22m")).toBe(2);
    expect(displayWidth("🚀x")).toBe(3);
    expect(padEndColumns("天气", 6)).toBe("天气  ");
    expect(padStartColumns("天气", 6)).toBe("  天气");
    expect(padEndColumns("too wide", 3)).toBe("too wide");
  });
});

/** The column each line's `marker` starts at, as a terminal draws it. */
const columnOf = (line: string, marker: string) => displayWidth(line.slice(0, line.indexOf(marker)));

describe("tables with wide characters", () => {
  it("list keeps its columns aligned when a skill name is Chinese", async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cjk-")));
    for (const name of ["查询天气", "deploy", "x"]) {
      const file = path.join(root, ".skillshelf/skills", name, "SKILL.md");
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, `---\nname: ${name}\ndescription: 查询某个城市的天气 ${name}.\n---\nBody.\n`);
    }
    const cap = capture(root);
    expect(await main(["list", "--no-builtins"], cap.ctx)).toBe(0);
    const rows = cap
      .out()
      .split("\n")
      .filter((l) => l.includes("  project  ") || l.startsWith("NAME"));
    expect(rows).toHaveLength(4);
    const scope = rows.map((l) => columnOf(l, l.startsWith("NAME") ? "SCOPE" : "project"));
    expect(new Set(scope).size).toBe(1);
  });
});
