import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChat } from "./chat.js";
import { type Demo, openDemo } from "./demo.js";
import { type DemoEvent, skillEventSignature } from "./events.js";
import { createRenderer } from "./render.js";
import { FRAMEWORKS, type Framework } from "./runners/runner.js";

type Of<T extends DemoEvent["type"]> = Extract<DemoEvent, { type: T }>;
const ofType = <T extends DemoEvent["type"]>(events: readonly DemoEvent[], type: T) =>
  events.filter((e): e is Of<T> => e.type === type);

const RELEASE = "Write the release notes for everything since v1.0.0.";

/** One conversation through a skill's whole life: start, continue, end three ways. */
const SCRIPT = [
  RELEASE, // 0: the skill starts, its whitelist applies
  "ok, go ahead", // 1: a continuation keeps it
  "/done", // 2: the user ends it
  RELEASE, // 3: it starts again
  "Search the web for md5.", // 4: a new request ends it; the search tool runs
  RELEASE, // 5: again
  "/batch-rename docs meeting-", // 6: another skill by command ends it; the model ends that one when done
  "/done", // 7: nothing left to end
];

interface ChatRun {
  demo: Demo;
  events: DemoEvent[];
  /** The events of each scripted message, in order. */
  turns: DemoEvent[][];
  transcript: string;
  /** The transcript's part for each scripted message. */
  shown: string[];
}

/** Pipes the script into the chat loop once, as `--chat --yes` on a pipe would take it. */
async function chat(framework: Framework): Promise<ChatRun> {
  const demo = await openDemo({ framework });
  const stdout = new PassThrough();
  let transcript = "";
  stdout.on("data", (d) => (transcript += d));
  const renderer = createRenderer({ out: stdout, color: false, spinner: false, skills: demo.shelf });
  demo.bus.subscribe((e) => renderer.handle(e));
  const stdin = new PassThrough();
  stdin.end([...SCRIPT, "/quit"].join("\n"));
  await runChat(demo, { renderer, stdin, stdout, yes: true, color: false });

  const events = [...demo.bus.events];
  const starts = events.flatMap((e, i) => (e.type === "user" ? [i] : []));
  const turns = starts.map((at, n) => events.slice(at, starts[n + 1]));
  const prompts = transcript.split("\nyou › ").slice(1);
  return { demo, events, turns, transcript, shown: prompts.slice(0, SCRIPT.length) };
}

const signatures = new Map<Framework, string[]>();

describe.each(FRAMEWORKS)("--chat through a skill's life on %s (offline model)", (framework) => {
  let run: ChatRun;
  beforeAll(async () => {
    run = await chat(framework);
    signatures.set(framework, skillEventSignature(run.events));
  });
  afterAll(() => run?.demo.close());

  const turn = (n: number) => run.turns[n]!;
  const called = (events: readonly DemoEvent[]) => ofType(events, "tool-call").map((c) => c.tool);

  it("reads every scripted message, in order, each as one turn", () => {
    expect(ofType(run.events, "user").map((u) => u.text)).toEqual(SCRIPT);
    expect(run.shown.map((s) => s.split("\n")[0])).toEqual(SCRIPT);
  });

  it("a release-notes request activates the skill: git_log runs, write_file is refused", () => {
    expect(ofType(turn(0), "activated")).toEqual([
      expect.objectContaining({ skill: "release-notes", by: "model" }),
    ]);
    expect(called(turn(0))).toEqual(["git_log"]);
    expect(ofType(turn(0), "tool-blocked")).toEqual([
      expect.objectContaining({ tool: "write_file", skill: "release-notes" }),
    ]);
    expect(run.shown[0]).toContain("tools now: git_log, read_file");
  });

  it('a continuation ("ok, go ahead") keeps the skill, now at the version accepted after turn 0', () => {
    expect(ofType(turn(0), "improvement-decided")).toEqual([
      expect.objectContaining({ skill: "release-notes", decision: "accepted", by: "--yes" }),
    ]);
    expect(ofType(turn(1), "deactivated")).toEqual([]);
    // The accepted rule is in the skill the next turn loads: the model no longer tries write_file.
    expect(ofType(turn(1), "tool-blocked")).toEqual([]);
    expect(called(turn(1))).not.toContain("write_file");
    expect(ofType(turn(1), "answer")[0]?.text).toContain("save them as RELEASE_NOTES.md");
  });

  it("/done ends it, and the model acknowledges without running anything", () => {
    expect(ofType(turn(2), "deactivated")).toEqual([
      expect.objectContaining({ skill: "release-notes", why: "user" }),
    ]);
    expect(called(turn(2))).toEqual([]);
    expect(ofType(turn(2), "answer")[0]?.text).toBe("Done: release-notes has ended.");
    expect(run.shown[2]).toMatch(/ended\s+release-notes \(you typed \/done; all tools again\)/);
  });

  it("a new request ends the skill, and a tool outside its whitelist runs (the search)", () => {
    expect(ofType(turn(3), "activated").map((a) => a.skill)).toEqual(["release-notes"]);
    expect(ofType(turn(4), "deactivated")).toEqual([
      expect.objectContaining({ skill: "release-notes", why: "new-request" }),
    ]);
    expect(ofType(turn(4), "tool-blocked")).toEqual([]);
    expect(called(turn(4))).toEqual(["grep"]);
    const answer = ofType(turn(4), "answer")[0]?.text;
    expect(answer).toContain("No web search here, so I searched the code");
    expect(answer).toMatch(/src\/auth\.ts:\d+: .*createHash\("md5"\)/);
  });

  it("/batch-rename after a release-notes request renames the files: the old skill blocks nothing", async () => {
    expect(ofType(turn(5), "activated").map((a) => a.skill)).toEqual(["release-notes"]);
    expect(ofType(turn(6), "deactivated")[0]).toMatchObject({ skill: "release-notes", why: "new-turn" });
    expect(ofType(turn(6), "activated")).toEqual([
      expect.objectContaining({ skill: "batch-rename", by: "user", args: "docs meeting-" }),
    ]);
    expect(ofType(turn(6), "tool-blocked")).toEqual([]);
    expect(called(turn(6))).toEqual(["list_files", "rename_file", "rename_file", "rename_file"]);
    expect((await readdir(join(run.demo.sandbox.dir, "docs"))).sort()).toEqual([
      "meeting-2026-11-02-standup.md",
      "meeting-2026-11-09-planning.md",
      "meeting-2026-11-16-retro.md",
    ]);
    expect(ofType(turn(6), "answer")[0]?.text).toMatch(/^Renamed 3 files/);
  });

  it("the model ends batch-rename when its task is done; /done then has nothing to end", () => {
    expect(ofType(turn(6), "deactivated").at(-1)).toMatchObject({ skill: "batch-rename", why: "model" });
    expect(run.shown[6]).toMatch(/ended\s+batch-rename \(the model finished its task\)/);
    expect(ofType(turn(7), "activated")).toEqual([]);
    expect(ofType(turn(7), "answer")[0]?.text).toBe("No skill was active, so there was nothing to end.");
    expect(run.shown[7]).toMatch(/released\s+batch-rename's tool limits/);
  });

  it("hints once how a skill ends, right after the first answer that left one active", () => {
    const hint = "(a skill ends with its task or a new request; /done ends it now)";
    expect(run.transcript.split(hint)).toHaveLength(2);
    const first = run.shown[0]!;
    expect(first.indexOf(hint)).toBeGreaterThan(first.indexOf("lead ›"));
    expect(first.indexOf(hint)).toBeLessThan(first.indexOf("proposal for release-notes"));
  });

  it("proposes an improvement from the refused call once, and for the skill that was refused only", () => {
    expect(ofType(run.events, "improvement-proposed").map((p) => p.skill)).toEqual(["release-notes"]);
    // Only the first run was refused: the later ones load the version accepted after it.
    expect(ofType(run.events, "analysis").map((a) => [a.skill, a.status])).toEqual([
      ["release-notes", "partial"],
      ["release-notes", "success"],
      ["release-notes", "success"],
      ["batch-rename", "success"],
    ]);
  });
});

describe("--chat across frameworks", () => {
  afterAll(() => signatures.clear());
  it("produces the same skill events on ai-sdk, langchain and mastra", () => {
    expect([...signatures.keys()].sort()).toEqual([...FRAMEWORKS].sort());
    const [first, ...rest] = FRAMEWORKS.map((f) => signatures.get(f));
    for (const other of rest) expect(other).toEqual(first);
    expect(first).toEqual(
      expect.arrayContaining([
        "ended release-notes by user",
        "ended release-notes by new-request",
        "ended release-notes by new-turn",
        "ended batch-rename by model",
      ]),
    );
  });
});
