import { PassThrough } from "node:stream";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { parseCli, UsageError } from "./cli.js";
import type { DemoEvent } from "./events.js";
import { main } from "./main.js";
import { startOfflineRulesServer } from "./test-utils/scripted-server.js";

/** Runs main() in-process with captured, non-terminal streams (as in CI or a pipe). */
async function run(argv: string[], input = "", env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d) => (out += d));
  stderr.on("data", (d) => (err += d));
  const stdin = new PassThrough();
  stdin.end(input);
  const code = await main(argv, { stdin, stdout, stderr, env });
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
      realModel: false,
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

/** What a whole run of main() printed: each run below happens once, and its tests read it. */
type Run = Awaited<ReturnType<typeof run>>;

describe("main --json", () => {
  let json: Run;
  beforeAll(async () => {
    json = await run(["--json", "--framework", "langchain"]);
  });

  it("prints the event stream as JSON lines, and nothing else", () => {
    expect(json.code).toBe(0);
    expect(json.err).toBe("");
    const events = json.out
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
});

describe("main, the story on a pipe", () => {
  let plain: Run;
  beforeAll(async () => {
    plain = await run([]);
  });

  it("prints a plain transcript: no colour codes, the offline model named as not an LLM", () => {
    expect(plain.code).toBe(0);
    expect(plain.out).not.toMatch(/\u001b\[/);
    expect(plain.out).toContain("deterministic rules, not an LLM");
    expect(plain.out).toMatch(/✗ BLOCKED\s+write_file/);
    expect(plain.out).toMatch(/delegated\s+security-auditor/);
    expect(plain.out).toMatch(/rolled back\s+release-notes/);
    expect(plain.out).toContain("Done.");
  });

  it("says the scripted user decided the card", () => {
    expect(plain.out).toContain("decided by the scripted user");
  });

  it("has no line wider than 80 columns", () => {
    expect(plain.out.split("\n").filter((l) => [...l].length > 80)).toEqual([]);
  });
});

describe("main --yes --color", () => {
  let forced: Run;
  beforeAll(async () => {
    forced = await run(["--yes", "--color", "--framework", "ai-sdk"]);
  });

  it("--yes says who accepted", () => {
    expect(forced.code).toBe(0);
    expect(forced.out).toContain("decided by --yes");
  });

  it("--color forces colour on", () => {
    expect(forced.out).toMatch(/\u001b\[/);
  });
});

describe("main, usage", () => {
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
});

describe("main --chat, from piped input", () => {
  let chat: Run;
  const input = [
    "/help",
    "/skills",
    "Write the release notes for everything since v1.0.0.",
    "a",
    "/history release-notes",
    "/rollback release-notes",
    "/history release-notes",
    "/new",
    "Write the release notes for everything since v1.0.0.",
    "r",
    "I will add the rule myself",
    "/new",
    "/batch-rename docs meeting-",
    "/quit",
  ].join("\n");
  beforeAll(async () => {
    chat = await run(["--chat", "--framework", "mastra"], input);
  });

  it("has no line wider than 80 columns", () => {
    expect(chat.out.split("\n").filter((l) => [...l].length > 80)).toEqual([]);
  });

  it("echoes the piped requests and lists the shelf", () => {
    expect(chat.code).toBe(0);
    expect(chat.out).toContain("you › /skills");
    expect(chat.out).toMatch(/security-auditor\s+role, project/);
    expect(chat.out).toMatch(/✗ BLOCKED\s+write_file/);
  });

  it("lets the user accept a card, and /rollback undoes the change", () => {
    expect(chat.out).toContain("accept, reject or skip?");
    expect(chat.out).toContain("decided by you");
    expect(chat.out).toMatch(/new version\s+release-notes 1\.0\.0 → 1\.0\.1/);
    expect(chat.out).toMatch(/rolled back\s+release-notes to 1\.0\.0/);
    expect(chat.out).toMatch(/1\.0\.2\s+rollback/);
  });

  it("lets the user reject a card with a reason", () => {
    expect(chat.out).toContain("reject: I will add the rule myself");
  });

  it("runs a /skill command with its arguments", () => {
    expect(chat.out).toMatch(/activated\s+batch-rename \(by the user, args "docs meeting-"\)/);
    expect(chat.out).toContain("Renamed 3 files");
  });
});

describe("main --chat, a skill script", () => {
  let chat: Run;
  const count = "Count the lines of the files in src.";
  beforeAll(async () => {
    // "y" approves the first run; an empty answer (just Enter) is the default, no.
    chat = await run(["--chat"], [count, "y", "/new", count, "", "/quit"].join("\n"));
  });

  it("asks the user before each run, default no", () => {
    expect(chat.code).toBe(0);
    expect(
      chat.out.match(/approve\?\s+run scripts\/count\.sh src of skill count-lines\? \[y\/N\]/g),
    ).toHaveLength(2);
    expect(chat.out).toContain("your answer [y/N]");
  });

  it("runs it when approved and shows the exit code and the output's tail", () => {
    expect(chat.out).toMatch(/approved\s+scripts\/count\.sh — decided by you/);
    expect(chat.out).toContain("scripts/count.sh exited with code 0");
    expect(chat.out).toMatch(/32 total/);
  });

  it("does not run it when the user just presses Enter", () => {
    expect(chat.out).toMatch(/refused\s+scripts\/count\.sh — decided by you/);
    expect(chat.out).toContain("You declined to run scripts/count.sh");
  });
});

describe("main and OPENAI_API_KEY", () => {
  it("a key in the environment alone calls no API: the offline model runs, and a note says so", async () => {
    const server = await startOfflineRulesServer();
    try {
      const env = { OPENAI_API_KEY: "test", OPENAI_BASE_URL: server.url, SKILLSHELF_MODEL: "scripted" };
      const { code, out } = await run([], "", env);
      expect(code).toBe(0);
      expect(server.requests).toHaveLength(0);
      expect(out).toContain("offline demo model");
      expect(out).toContain("OPENAI_API_KEY is set but unused: --real-model calls that API");
    } finally {
      await server.close();
    }
  });

  it("--real-model without a key is bad usage", async () => {
    const { code, err } = await run(["--real-model"]);
    expect(code).toBe(2);
    expect(err).toContain("--real-model needs OPENAI_API_KEY");
  });
});

describe("main --chat /help and the offline model's repertoire", () => {
  let chat: Run;
  beforeAll(async () => {
    chat = await run(
      ["--chat", "--yes"],
      ["/help", "Write a changelog since v1.0.0.", "/new", "What is the weather?", "/quit"].join("\n"),
    );
  });

  it("/help lists the requests the offline model knows, per skill", () => {
    expect(chat.out).toContain("The offline model (rules, not an LLM) knows these requests");
    expect(chat.out).toMatch(/ {2}release-notes\n {4}Write the release notes/);
    expect(chat.out).toMatch(/ {2}count-lines\n {4}Count the lines of the files in src\./);
  });

  it("routes a known wording that does not name the skill", () => {
    expect(chat.out).toMatch(/activated\s+release-notes \(by the model\)/);
  });

  it("says plainly when a request is outside what it knows", () => {
    expect(chat.out).toContain("That request is outside what the offline model knows");
  });
});

describe.each(["ai-sdk", "langchain", "mastra"])(
  "main --chat -f %s, a builtin role's diagnostics",
  (framework) => {
    it("are one debug line in the transcript, never warnings on the console", async () => {
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      try {
        const ask = "Ask the researcher to look at README.md";
        const chat = await run(["--chat", "-f", framework], [ask, ask, "/quit"].join("\n"));
        expect(chat.code).toBe(0);
        expect(chat.out.match(/delegated\s+researcher/g)).toHaveLength(2);
        expect(chat.out.match(/debug\s+researcher: allowed-tools name tools this host lacks/g)).toHaveLength(
          1,
        );
        expect(chat.out + chat.err).not.toContain("[skillshelf]");
        expect(warn).not.toHaveBeenCalled();
      } finally {
        warn.mockRestore();
      }
    });
  },
);
