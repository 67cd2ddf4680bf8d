import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pc from "picocolors";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandContext } from "../context.js";
import { main } from "../main.js";

let root: string;
let home: string | undefined;
let out: string;
let err: string;

function ctx(): CommandContext {
  return {
    cwd: root,
    env: {},
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    color: pc.createColors(false),
  };
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

async function skill(name: string, extra = "") {
  const dir = path.join(root, ".skillshelf", "skills", name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\nBody.\n`,
  );
}

async function log(lines: unknown[]) {
  await mkdir(path.join(root, ".skillshelf"), { recursive: true });
  await writeFile(
    path.join(root, ".skillshelf", "events.jsonl"),
    lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n"),
  );
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-stats-"));
  // User-scope skills (~/.skillshelf/skills) of whoever runs the tests must not leak in.
  home = process.env.HOME;
  process.env.HOME = path.join(root, "home");
  out = "";
  err = "";
  await skill("writer");
  await skill("editor");
  await skill("archiver");
  await skill("my-role", "role: true\n");
  await log([
    {
      type: "candidates",
      at: daysAgo(3),
      message: "write",
      candidates: [{ name: "writer", score: 1, reasons: [] }],
      vetoed: [],
      ambiguous: false,
    },
    { type: "activated", at: daysAgo(3), skill: "writer", by: "model" },
    { type: "activated", at: daysAgo(2), skill: "writer", by: "user", args: "x" },
    { type: "activated", at: daysAgo(40), skill: "editor", by: "model" },
    {
      type: "activation-refused",
      at: daysAgo(1),
      skill: "writer",
      by: "model",
      error_type: "ALREADY_ACTIVE",
    },
    { type: "tool-blocked", at: daysAgo(1), tool: "execute", active: ["writer"], skill: "writer" },
    { type: "tool-blocked", at: daysAgo(1), tool: "execute", active: ["writer"], skill: "writer" },
    "{torn line",
    { type: "delegated", at: daysAgo(1), role: "researcher", task: "t", tools: [] },
  ]);
});

afterEach(async () => {
  process.env.HOME = home;
  await rm(root, { recursive: true, force: true });
});

describe("skillshelf stats", () => {
  it("prints usage, zero-use skills (incl. ones the log never mentions) and blocked calls", async () => {
    expect(await main(["stats"], ctx())).toBe(0);
    expect(out).toContain("Events: 8");
    expect(out).toMatch(/writer\s+2\s+1\s+1\s+0\s+0\s+1\s+1/);
    expect(out).toContain("Zero use in the last 30 days");
    // editor was used 40 days ago; archiver never; roles (builtin or own) are not listed.
    expect(out).toMatch(/Zero use in the last 30 days \(since [\d-]+\): 2\n {2}archiver, editor\n/);
    expect(out).not.toMatch(/Zero use[^\n]*\n[^\n]*(researcher|my-role)/);
    expect(out).toContain("Blocked tool calls: 2");
    expect(out).toContain("by tool:  execute 2");
    expect(out).toContain("by skill: writer 2");
    expect(out).toContain("Refused activations: 1 (ALREADY_ACTIVE 1)");
    expect(out).toContain("Delegations: 1 (researcher 1)");
    expect(err).toContain("skipped 1 line(s)");
    expect(err).toContain("line 8");
  });

  it("--days changes the window", async () => {
    expect(await main(["stats", "--days", "60"], ctx())).toBe(0);
    expect(out).toMatch(/Zero use in the last 60 days \(since [\d-]+\): 1\n {2}archiver\n/);
  });

  it("--json prints the summary", async () => {
    expect(os.homedir()).toBe(path.join(root, "home"));
    expect(await main(["stats", "--json", "--days", "7"], ctx())).toBe(0);
    const json = JSON.parse(out);
    expect(json.file).toBe(path.join(root, ".skillshelf", "events.jsonl"));
    expect(json.invalidLines).toEqual([8]);
    expect(json.zeroUse.skills).toEqual(["archiver", "editor"]);
    expect(json.blocked.byTool).toEqual([{ tool: "execute", count: 2 }]);
    expect(json.skills[0]).toMatchObject({ name: "writer", activations: 2 });
  });

  it("without --events, a log not written yet is an empty one", async () => {
    expect(await main(["stats", "--state-dir", "never-written"], ctx())).toBe(0);
    expect(out).toContain("Events: 0");
    expect(out).toContain("No events yet");
    expect(out).toMatch(/Zero use[^\n]*: 3\n {2}archiver, editor, writer/);
  });

  it("a log named by --events that is missing or a folder, or a --root that is not one, is bad usage", async () => {
    expect(await main(["stats", "--events", "nowhere.jsonl"], ctx())).toBe(2);
    expect(err).toContain(`--events ${path.join(root, "nowhere.jsonl")} does not exist`);
    expect(await main(["stats", "--events", "."], ctx())).toBe(2);
    expect(err).toContain(`--events ${root} is not a file`);
    expect(await main(["stats", "--root", "missing"], ctx())).toBe(2);
    expect(err).toContain(`--root ${path.join(root, "missing")} does not exist`);
  });

  it("--thread, --run and --session keep one conversation's events", async () => {
    const at = daysAgo(1);
    await log([
      { type: "activated", at, skill: "writer", by: "model", session: "s1", thread: "t1", run: "r1" },
      { type: "activated", at, skill: "editor", by: "model", session: "s2", thread: "t1", run: "r2" },
      { type: "activated", at, skill: "archiver", by: "model", session: "s3", thread: "t2", run: "r3" },
    ]);
    expect(await main(["stats", "--json", "--thread", "t1"], ctx())).toBe(0);
    const json = JSON.parse(out);
    expect(json.filter).toEqual({ thread: "t1" });
    expect(json.events).toBe(2);
    expect(
      json.skills
        .filter((s: { activations: number }) => s.activations > 0)
        .map((s: { name: string }) => s.name),
    ).toEqual(["editor", "writer"]);
    out = "";
    expect(await main(["stats", "--json", "--thread", "t1", "--run", "r2"], ctx())).toBe(0);
    expect(JSON.parse(out).events).toBe(1);
    out = "";
    expect(await main(["stats", "--session", "s3"], ctx())).toBe(0);
    expect(out).toContain("Events: 1");
    expect(out).toContain("session s3");
  });

  it("rejects bad options with usage", async () => {
    expect(await main(["stats", "--days", "soon"], ctx())).toBe(2);
    expect(err).toContain("--days must be a positive number");
    err = "";
    expect(await main(["stats", "--frobnicate"], ctx())).toBe(2);
    expect(err).toContain("Usage: skillshelf stats");
    expect(await main(["stats", "--help"], ctx())).toBe(0);
    expect(out).toContain("--days <n>");
  });
});
