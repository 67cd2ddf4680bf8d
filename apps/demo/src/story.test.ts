import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Demo, openDemo } from "./demo.js";
import { type DemoEvent, MILESTONES, skillEventSignature } from "./events.js";
import { improveSkill, transcriptOf } from "./improve.js";
import { FRAMEWORKS, type Framework } from "./runners/runner.js";
import { CHAPTERS, RELEASE_RUN_OUTCOME, runStory, tell } from "./story.js";

type Of<T extends DemoEvent["type"]> = Extract<DemoEvent, { type: T }>;
const ofType = <T extends DemoEvent["type"]>(events: readonly DemoEvent[], type: T) =>
  events.filter((e): e is Of<T> => e.type === type);

/** Index of each milestone's first occurrence, searching on from the previous one. */
function milestoneOrder(events: readonly DemoEvent[]): number[] {
  let from = 0;
  return MILESTONES.map((type) => {
    const at = events.findIndex((e, i) => i >= from && e.type === type);
    from = at + 1;
    return at;
  });
}

const signatures = new Map<Framework, string[]>();

describe.each(FRAMEWORKS)("the story on %s (offline model)", (framework) => {
  // The whole story runs once; each test reads what it recorded.
  let demo: Demo;
  let events: DemoEvent[];
  beforeAll(async () => {
    demo = await openDemo({
      framework,
      approveScript: async () => ({ approve: true, by: "test" }),
      confirmWorkflow: async () => ({ approve: true, by: "test" }),
    });
    await runStory(demo, async () => ({ accept: true, by: "test" }));
    events = demo.bus.events;
    signatures.set(framework, skillEventSignature(events));
  });
  afterAll(() => demo?.close());

  it("reaches every milestone in order", () => {
    // candidates → activation → blocked call → delegation → improvement → rollback
    const order = milestoneOrder(events);
    expect(
      order.every((at) => at >= 0),
      `missing milestone: ${MILESTONES.filter((_, i) => order[i]! < 0)}`,
    ).toBe(true);
  });

  it("routes with stage 1: release-notes by its trigger; summarize-diff vetoed by its exclusion", () => {
    const [release, commit] = ofType(events, "candidates");
    expect(release?.candidates[0]?.name).toBe("release-notes");
    expect(release?.candidates[0]?.reasons).toContainEqual(
      expect.objectContaining({ kind: "trigger", trigger: "release notes" }),
    );
    // The near miss: summarize-diff's trigger matched, its exclusion vetoed it.
    expect(commit?.candidates.map((c) => c.name)).not.toContain("summarize-diff");
    expect(commit?.vetoed).toContainEqual(
      expect.objectContaining({ name: "summarize-diff", exclusion: "commit message" }),
    );
  });

  it("activates release-notes by the model and batch-rename by the user only", () => {
    expect(ofType(events, "activated").map((a) => [a.skill, a.by])).toEqual([
      ["release-notes", "model"],
      ["batch-rename", "user"],
      ["count-lines", "model"],
      ["meeting-digest", "model"],
      // the next run, after the improvement was accepted
      ["release-notes", "model"],
    ]);
    // The user-only skill was never offered: never a candidate, never activated by the model.
    expect(ofType(events, "candidates").flatMap((c) => c.candidates.map((x) => x.name))).not.toContain(
      "batch-rename",
    );
  });

  it("runs the meeting-digest workflow after the user confirms it: three checked steps, one line per meeting", () => {
    const asked = events.findIndex(
      (e) => e.type === "notice" && e.text.startsWith("meeting-digest is a workflow"),
    );
    const steps = events.flatMap((e) => (e.type === "notice" && e.text.startsWith("✓ step") ? [e.text] : []));
    expect(asked).toBeGreaterThan(-1);
    expect(steps).toEqual(["✓ step collect done", "✓ step summarize done", "✓ step check done"]);
    const answer = ofType(events, "answer").find((a) => a.thread === "digest")!;
    expect(answer.text).toContain("✓ 3/3 Every meeting is in the digest (check)");
    expect(answer.text.split("\n").filter((l) => /^(meeting-)?2026-11-\d\d/.test(l))).toHaveLength(3);
  });

  it("refuses write_file under release-notes, and the call never runs", async () => {
    expect(ofType(events, "tool-blocked")).toEqual([
      expect.objectContaining({ tool: "write_file", skill: "release-notes" }),
    ]);
    expect(ofType(events, "tool-call").map((c) => c.tool)).not.toContain("write_file");
    await expect(stat(join(demo.sandbox.dir, "RELEASE_NOTES.md"))).rejects.toThrow();
  });

  it("the next run after the accept loads the improved skill from the sandbox shelf: no refused call", () => {
    const next = events.findIndex((e) => e.type === "user" && e.thread === "release-next");
    const accepted = events.findIndex((e) => e.type === "improvement-decided" && e.decision === "accepted");
    const rolledBack = events.findIndex((e) => e.type === "rolled-back");
    expect(accepted).toBeGreaterThan(0);
    expect(next).toBeGreaterThan(accepted);
    expect(rolledBack).toBeGreaterThan(next);
    const run = events.slice(next, rolledBack);
    expect(ofType(run, "activated").map((a) => a.skill)).toEqual(["release-notes"]);
    expect(ofType(run, "tool-blocked")).toEqual([]);
    expect(ofType(run, "answer")[0]?.text).toContain("save them as RELEASE_NOTES.md");
    expect(ofType(events, "notice").map((n) => n.text)).toEqual(
      expect.arrayContaining([
        "the next run loads release-notes 1.0.1 (the accepted version) from the sandbox shelf",
        "the difference: refused calls 1 → 0 (no write_file this time)",
      ]),
    );
  });

  it("delegates to the role the user wrote as a file, with only its whitelisted tools", () => {
    const [delegated] = ofType(events, "delegated");
    expect(delegated?.role).toBe("security-auditor");
    expect([...(delegated?.tools ?? [])].sort()).toEqual(["grep", "list_files", "read_file"]);
    const auditorCalls = ofType(events, "tool-call").filter((c) => c.agent === "security-auditor");
    expect(auditorCalls.length).toBeGreaterThan(0);
    expect(auditorCalls.every((c) => delegated?.tools.includes(c.tool))).toBe(true);
    expect(ofType(events, "answer").find((a) => a.thread === "team")?.text).toMatch(/MD5/);
  });

  it("renames the files on the user's /batch-rename, in the sandbox only; the model then ends the skill", async () => {
    const renamed = await readFile(join(demo.sandbox.dir, "docs", "meeting-2026-11-09-planning.md"), "utf8");
    expect(renamed).toContain("Planning");
    expect(ofType(events, "deactivated")).toEqual([
      expect.objectContaining({ skill: "batch-rename", why: "model" }),
    ]);
  });

  it("improves release-notes: proposed, accepted, 1.0.0 → 1.0.1, then rolled back to 1.0.0's text as 1.0.2", async () => {
    expect(ofType(events, "improvement-proposed")).toEqual([
      expect.objectContaining({ skill: "release-notes", version: "1.0.0" }),
    ]);
    expect(ofType(events, "skill-version")).toEqual([
      expect.objectContaining({ skill: "release-notes", from: "1.0.0", to: "1.0.1" }),
    ]);
    expect(ofType(events, "skill-diff")[0]?.diff).toMatch(/^\+6\. Use only this skill's allowed-tools/m);
    expect(ofType(events, "rolled-back")).toEqual([
      expect.objectContaining({ skill: "release-notes", restored: "1.0.0", version: "1.0.2" }),
    ]);
    const skill = await readFile(demo.shelf.get("release-notes")!.file, "utf8");
    expect(skill).toContain("version: 1.0.2");
    expect(skill).not.toContain("6. Use only");
    expect((await demo.shelf.history("release-notes")).map((v) => v.version)).toEqual([
      "1.0.2",
      "1.0.1",
      "1.0.0",
    ]);
  });
});

describe("across frameworks", () => {
  afterAll(() => signatures.clear());
  it("produces the same sequence of skill events on ai-sdk, langchain and mastra", () => {
    expect([...signatures.keys()].sort()).toEqual([...FRAMEWORKS].sort());
    const [first, ...rest] = FRAMEWORKS.map((f) => signatures.get(f));
    for (const other of rest) expect(other).toEqual(first);
    // Not vacuous: the shared sequence holds the whole story.
    expect(first).toEqual(
      expect.arrayContaining([
        "activated release-notes by model",
        "blocked write_file by release-notes",
        "delegated security-auditor tools:list_files,read_file,grep",
        "activated batch-rename by user",
        "ended batch-rename by model",
        "script count-lines scripts/count.sh approved",
        "accepted release-notes",
        "rolled-back release-notes to 1.0.0",
      ]),
    );
  });
});

describe("a rejected proposal", () => {
  it("is recorded with its reason, changes nothing, and is not proposed again", async () => {
    const demo = await openDemo({ framework: "ai-sdk" });
    try {
      await tell(demo, CHAPTERS[0]!.beats[0]!);
      const before = await readFile(demo.shelf.get("release-notes")!.file, "utf8");
      const transcript = transcriptOf(demo.bus.events, "release");
      const improve = (reason: string) =>
        improveSkill({
          shelf: demo.shelf,
          bus: demo.bus,
          generate: demo.runner.generate,
          skill: "release-notes",
          transcript,
          outcome: RELEASE_RUN_OUTCOME,
          decide: async () => ({ accept: false, reason, by: "test" }),
        });
      const first = await improve("I prefer the rule in my own words");
      expect(first.rejected).toHaveLength(1);
      expect(ofType(demo.bus.events, "improvement-decided")).toEqual([
        expect.objectContaining({ decision: "rejected", reason: "I prefer the rule in my own words" }),
      ]);
      expect(await readFile(demo.shelf.get("release-notes")!.file, "utf8")).toBe(before);
      expect((await demo.shelf.improvements.list({ status: "rejected" }))[0]?.reason).toBe(
        "I prefer the rule in my own words",
      );

      const again = await improve("still no");
      expect(again.proposals).toEqual([]);
      expect(ofType(demo.bus.events, "improvement-none")).toHaveLength(1);
    } finally {
      await demo.close();
    }
  });
});
