import { describe, expect, it, vi } from "vitest";
import type { SessionState } from "../types.js";
import { defaultRunOutcome, improveAfterRun, runMessages, skillsUsedInRun } from "./after-run.js";
import type { AnalyzeOptions } from "./improvements.js";
import { assistantEntry, type RunMessage, toolEntry, userEntry } from "./run-transcript.js";

const at = "2026-01-01T00:00:00.000Z";

function stub() {
  const analyze = vi.fn(async (_options: AnalyzeOptions) => ({ proposals: [], dropped: [] }));
  return { shelf: { improvements: { analyze } }, analyze };
}

const earlier: RunMessage[] = [
  userEntry("write the release notes"),
  assistantEntry("", [{ name: "git_log", input: {} }]),
  toolEntry("git_log", { status: "error", error_type: "TOOL_ERROR", message: "boom" }),
];

describe("improveAfterRun: when the improvement analysis runs", () => {
  it("analyses each skill the run used — the model-ended one too — once, with this run's messages", async () => {
    const { shelf, analyze } = stub();
    const state: SessionState = {
      active: [
        { name: "release-notes", by: "model", at },
        { name: "pdf-report", by: "user", at, finished: true },
      ],
      turn: { id: "1:x", ended: [{ name: "old-skill", why: "new-request" }] },
    };
    const transcript = [
      ...earlier,
      userEntry("Make a pdf report"),
      assistantEntry("Report ready.", [{ name: "read_file", input: { path: "a.csv" } }]),
      toolEntry("read_file", "month,total"),
    ];

    const result = await improveAfterRun(shelf, { wait: true })({ state, transcript });

    expect(result.analysed).toEqual(["release-notes", "pdf-report"]);
    expect(analyze.mock.calls.map(([o]) => o.skill)).toEqual(["release-notes", "pdf-report"]);
    const first = analyze.mock.calls[0]![0];
    // The earlier run's failed call is not this run's: the default outcome is "success".
    expect(first.outcome).toBe("success");
    expect(first.transcript).toEqual([
      { role: "user", content: "Make a pdf report" },
      { role: "assistant", content: 'Report ready.\n[calls read_file {"path":"a.csv"}]' },
      { role: "tool", content: "[read_file] month,total" },
    ]);
  });

  it("a failed or refused call of the run makes it partial; no skill, or an outcome of undefined, analyses nothing", async () => {
    const refused = toolEntry(
      "web_search",
      JSON.stringify({ status: "error", error_type: "TOOL_NOT_ALLOWED", message: "no" }),
    );
    expect(refused.failed).toBe(true);
    expect(toolEntry("x", "fine", { error: true }).failed).toBe(true);
    expect(defaultRunOutcome({ transcript: [userEntry("a"), refused] })).toBe("partial");
    expect(runMessages(earlier)).toEqual(earlier);

    const { shelf, analyze } = stub();
    const none = await improveAfterRun(shelf, { wait: true })({ state: { active: [] }, transcript: earlier });
    expect(none.analysed).toEqual([]);
    const skipped = await improveAfterRun(shelf, { wait: true, outcome: () => undefined })({
      state: { active: [{ name: "a", by: "model", at }] },
      transcript: earlier,
    });
    expect(skipped.analysed).toEqual([]);
    expect(analyze).not.toHaveBeenCalled();
    expect(skillsUsedInRun({ active: [{ name: "a", by: "model", at }] })).toEqual(["a"]);
  });

  it("runs in the background by default and hands a failed analysis to onError, never to the run", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const analyze = vi.fn(async () => {
      await gate;
      throw new Error("no model");
    });
    const onError = vi.fn();
    const result = await improveAfterRun(
      { improvements: { analyze } },
      { onError },
    )({
      state: { active: [{ name: "a", by: "model", at }] },
      transcript: [userEntry("go")],
    });
    expect(result.analysed).toEqual(["a"]);
    expect(onError).not.toHaveBeenCalled();
    release();
    await result.done;
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: "no model" }), "a");
  });
});
