import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseCli, UsageError } from "./cli.js";
import type { DemoEvent } from "./events.js";
import { main } from "./main.js";

/** Runs main() in-process with captured, non-terminal streams (as in CI or a pipe). */
async function run(argv: string[], input = "") {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d) => (out += d));
  stderr.on("data", (d) => (err += d));
  const stdin = new PassThrough();
  stdin.end(input);
  const code = await main(argv, { stdin, stdout, stderr, env: {} });
  return { code, out, err };
}

describe("parseCli", () => {
  it("defaults to the scripted ai-sdk story", () => {
    expect(parseCli([])).toEqual({
      framework: "ai-sdk",
      chat: false,
      yes: false,
      json: false,
      color: undefined,
      keep: false,
      help: false,
    });
    expect(parseCli(["-f", "mastra", "--chat", "-y", "--no-color"])).toMatchObject({
      framework: "mastra",
      chat: true,
      yes: true,
      color: false,
    });
  });

  it("refuses an unknown framework, an unknown option, a stray argument, and --json with --chat", () => {
    expect(() => parseCli(["--framework", "crewai"])).toThrow(
      new UsageError('unknown framework "crewai": use ai-sdk, langchain, mastra'),
    );
    expect(() => parseCli(["--fast"])).toThrow(UsageError);
    expect(() => parseCli(["langchain"])).toThrow(/unexpected argument "langchain"/);
    expect(() => parseCli(["--json", "--chat"])).toThrow(UsageError);
  });
});

describe("main", () => {
  it("--json prints the event stream as JSON lines, and nothing else", async () => {
    const { code, out, err } = await run(["--json", "--framework", "langchain"]);
    expect(code).toBe(0);
    expect(err).toBe("");
    const events = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as DemoEvent);
    expect(events[0]).toMatchObject({ type: "setup", framework: "langchain", offline: true });
    const kinds = events.map((e) => e.type);
    for (const kind of [
      "candidates",
      "activated",
      "tool-blocked",
      "delegated",
      "improvement-proposed",
      "improvement-decided",
      "skill-version",
      "skill-diff",
      "rolled-back",
    ]) {
      expect(kinds).toContain(kind);
    }
  });

  it("prints a plain transcript when not on a terminal: no colour codes, the offline model named as not an LLM", async () => {
    const { code, out } = await run([]);
    expect(code).toBe(0);
    expect(out).not.toMatch(/\u001b\[/);
    expect(out).toContain("deterministic rules, not an LLM");
    expect(out).toMatch(/✗ BLOCKED\s+write_file/);
    expect(out).toMatch(/delegated\s+security-auditor/);
    expect(out).toContain("decided by the scripted user");
    expect(out).toMatch(/rolled back\s+release-notes/);
    expect(out).toContain("Done.");
  });

  it("--yes says who accepted", async () => {
    const { out } = await run(["--yes"]);
    expect(out).toContain("decided by --yes");
  });

  it("--color forces colour on", async () => {
    const { out } = await run(["--color", "--framework", "ai-sdk"]);
    expect(out).toMatch(/\u001b\[/);
  });

  it("exits 2 with the usage on a bad framework, without starting anything", async () => {
    const { code, out, err } = await run(["--framework", "autogen"]);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain('error: unknown framework "autogen": use ai-sdk, langchain, mastra');
    expect(err).toContain("Usage:");
  });

  it("--help prints the usage", async () => {
    const { code, out } = await run(["--help"]);
    expect(code).toBe(0);
    expect(out).toContain("--framework <name>");
    expect(out).toContain("OPENAI_API_KEY");
  });

  it("--chat reads requests from stdin, runs /skill commands, and lets the user reject a card with a reason", async () => {
    const input = [
      "/skills",
      "Write the release notes for everything since v1.0.0.",
      "r",
      "I will add the rule myself",
      "/new",
      "/batch-rename docs meeting-",
      "/quit",
    ].join("\n");
    const { code, out } = await run(["--chat"], input);
    expect(code).toBe(0);
    expect(out).toMatch(/security-auditor\s+role, project/);
    expect(out).toMatch(/✗ BLOCKED\s+write_file/);
    expect(out).toContain("accept, reject or skip?");
    expect(out).toContain("reject: I will add the rule myself");
    expect(out).toMatch(/activated\s+batch-rename \(by the user, args "docs meeting-"\)/);
    expect(out).toContain("Renamed 3 files");
  });

  it("--chat --yes accepts cards, and /rollback undoes the change", async () => {
    const input = [
      "Write the release notes for everything since v1.0.0.",
      "/rollback release-notes",
      "/history release-notes",
    ].join("\n");
    const { code, out } = await run(["--chat", "--yes", "--framework", "mastra"], input);
    expect(code).toBe(0);
    expect(out).toContain("decided by --yes");
    expect(out).toMatch(/new version\s+release-notes 1\.0\.0 → 1\.0\.1/);
    expect(out).toMatch(/rolled back\s+release-notes to 1\.0\.0/);
    expect(out).toMatch(/1\.0\.2\s+rollback/);
  });
});
