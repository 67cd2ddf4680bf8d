import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describeWithSharedData, sharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createShelf } from "../shelf.js";
import { USAGE_FILE } from "./file-store.js";

// Real SKILL.md files from the shared corpus.
const CORPUS = pathToFileURL(sharedData("skills-corpus/anthropics--skills/skills/"));
const REAL = ["mcp-builder", "skill-creator", "webapp-testing", "frontend-design"];

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-noteread-"));
  for (const name of REAL) {
    const dir = path.join(root, ".skillshelf", "skills", name);
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(new URL(`${name}/SKILL.md`, CORPUS), path.join(dir, "SKILL.md"));
  }
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

async function shelfHere() {
  return createShelf({ root, userDirs: [], builtinRoles: false, events: false });
}

describeWithSharedData("shelf.noteRead", () => {
  it("counts a host file-read of a SKILL.md as use, persisted under .skillshelf/", async () => {
    const shelf = await shelfHere();
    shelf.noteRead(path.join(root, ".skillshelf", "skills", "mcp-builder", "SKILL.md"));
    shelf.noteRead(".skillshelf/skills/mcp-builder/SKILL.md"); // relative to the root
    await shelf.close(); // writes the uses still pending
    const saved = JSON.parse(fs.readFileSync(path.join(root, ".skillshelf", USAGE_FILE), "utf8"));
    expect(saved.skills["mcp-builder"].count).toBe(2);
    expect(typeof saved.skills["mcp-builder"].lastUsed).toBe("string");
  });

  it("follows a symlinked path to the same SKILL.md", async () => {
    const link = path.join(root, "linked");
    fs.symlinkSync(path.join(root, ".skillshelf", "skills", "skill-creator"), link);
    const shelf = await shelfHere();
    shelf.noteRead(path.join(link, "SKILL.md"));
    await shelf.close();
    const saved = JSON.parse(fs.readFileSync(path.join(root, ".skillshelf", USAGE_FILE), "utf8"));
    expect(saved.skills["skill-creator"].count).toBe(1);
  });

  it("ignores files that are not a skill's SKILL.md", async () => {
    const other = path.join(root, "notes.md");
    fs.writeFileSync(other, "hi");
    const shelf = await shelfHere();
    shelf.noteRead(other);
    shelf.noteRead(path.join(root, "missing", "SKILL.md"));
    await shelf.close();
    expect(fs.existsSync(path.join(root, ".skillshelf", USAGE_FILE))).toBe(false);
  });

  it("emits a skill-read event", async () => {
    const events: unknown[] = [];
    const shelf = await createShelf({
      root,
      userDirs: [],
      builtinRoles: false,
      events: { emit: (e) => events.push(e) },
    });
    shelf.noteRead(path.join(root, ".skillshelf", "skills", "webapp-testing", "SKILL.md"));
    expect(events).toEqual([
      expect.objectContaining({
        type: "skill-read",
        skill: "webapp-testing",
        path: expect.stringContaining("SKILL.md"),
      }),
    ]);
    await shelf.close();
  });
});

describeWithSharedData("shelf.match", () => {
  it("matches real skills, with reasons, and uses the shelf's usage store for ties", async () => {
    const shelf = await shelfHere();
    const result = shelf.match("I want to build an MCP server that wraps our REST API");
    expect(result.candidates[0]?.name).toBe("mcp-builder");
    expect(result.candidates[0]?.reasons.some((r) => r.kind === "lexical")).toBe(true);
    expect(shelf.match("what's the weather like in Lisbon?").candidates).toEqual([]);
    await shelf.close();
  });

  it("takes matcher options from the shelf options", async () => {
    const shelf = await createShelf({
      root,
      userDirs: [],
      builtinRoles: false,
      events: false,
      matcher: { minScore: 0.99 },
    });
    expect(shelf.match("I want to build an MCP server that wraps our REST API").candidates).toEqual([]);
    await shelf.close();
  });
});
