import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SkillEvent } from "../types.js";
import { jsonlEventSink } from "./jsonl-sink.js";
import { memoryEventSink } from "./memory-sink.js";
import { parseEvents, readEvents } from "./read-events.js";
import { summarizeEvents } from "./summarize.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillshelf-events-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12)).toISOString();

describe("jsonlEventSink", () => {
  it("appends one JSON line per event, creating the folder, in order", async () => {
    const file = path.join(dir, "state", "events.jsonl");
    const sink = jsonlEventSink(file);
    sink.emit({ type: "activated", at: at(1), skill: "pdf", by: "model" });
    sink.emit({ type: "deactivated", at: at(2), skill: "pdf" });
    await sink.flush();
    sink.emit({ type: "tool-blocked", at: at(3), tool: "execute", active: ["pdf"], skill: "pdf" });
    await sink.flush();
    const lines = (await readFile(file, "utf8")).trim().split("\n");
    expect(lines.map((l) => JSON.parse(l).type)).toEqual(["activated", "deactivated", "tool-blocked"]);
    // A second sink on the same file appends (another process, a restart).
    const again = jsonlEventSink(file);
    again.emit({ type: "deactivated", at: at(4), skill: "x" });
    await again.flush();
    expect((await readEvents(file)).events).toHaveLength(4);
  });

  it("writes what is emitted together, later, without a flush, and nothing inside the emitting call", async () => {
    const file = path.join(dir, "events.jsonl");
    const sink = jsonlEventSink(file);
    for (let day = 1; day <= 3; day++) sink.emit({ type: "deactivated", at: at(day), skill: `s${day}` });
    expect(existsSync(file)).toBe(false);
    // Waited for, not timed: vi.waitFor gives up after 1 s by default, and a loaded machine can
    // hold the batch's 50 ms timer and its write longer than that.
    await vi.waitFor(async () => expect((await readEvents(file)).events).toHaveLength(3), {
      timeout: 15_000,
    });
  });

  it("never throws into the host when the disk fails; reports through onError", async () => {
    const blocker = path.join(dir, "not-a-dir");
    await writeFile(blocker, "x");
    const errors: unknown[] = [];
    const sink = jsonlEventSink(path.join(blocker, "events.jsonl"), { onError: (e) => errors.push(e) });
    expect(() => sink.emit({ type: "deactivated", at: at(1), skill: "a" })).not.toThrow();
    await expect(sink.flush()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    // Later events still try (the disk may come back) and still never throw.
    sink.emit({ type: "deactivated", at: at(2), skill: "b" });
    await sink.flush();
    expect(errors).toHaveLength(2);
  });

  it("skips an event that cannot be serialised instead of throwing", async () => {
    const errors: unknown[] = [];
    const file = path.join(dir, "e.jsonl");
    const sink = jsonlEventSink(file, { onError: (e) => errors.push(e) });
    const cyclic: Record<string, unknown> = { type: "delegated", at: at(1) };
    cyclic.self = cyclic;
    sink.emit(cyclic as unknown as SkillEvent);
    sink.emit({ type: "deactivated", at: at(1), skill: "ok" });
    await sink.flush();
    expect(errors).toHaveLength(1);
    expect((await readEvents(file)).events).toHaveLength(1);
  });

  it("serialises an event when its batch is written, not inside the emitting call", async () => {
    const file = path.join(dir, "events.jsonl");
    const sink = jsonlEventSink(file);
    let serialised = 0;
    const event = {
      type: "deactivated",
      at: at(1),
      skill: "a",
      toJSON: () => {
        serialised++;
        return { type: "deactivated", at: at(1), skill: "a" };
      },
    } as SkillEvent;
    sink.emit(event);
    expect(serialised).toBe(0);
    await sink.flush();
    expect(serialised).toBe(1);
    expect(await readFile(file, "utf8")).toBe(
      `${JSON.stringify({ type: "deactivated", at: at(1), skill: "a" })}\n`,
    );
  });

  it("keeps writing after an onError handler throws", async () => {
    const file = path.join(dir, "e.jsonl");
    const sink = jsonlEventSink(file, {
      onError: () => {
        throw new Error("handler failed");
      },
    });
    const cyclic: Record<string, unknown> = { type: "delegated", at: at(1) };
    cyclic.self = cyclic;
    sink.emit(cyclic as unknown as SkillEvent);
    await expect(sink.flush()).resolves.toBeUndefined();
    sink.emit({ type: "deactivated", at: at(2), skill: "ok" });
    await sink.flush();
    expect((await readEvents(file)).events).toHaveLength(1);
  });

  it("the default error report is a single process warning", async () => {
    const blocker = path.join(dir, "blocker");
    await writeFile(blocker, "");
    const warnings: string[] = [];
    const listener = (w: Error) => warnings.push(w.message);
    process.on("warning", listener);
    try {
      const sink = jsonlEventSink(path.join(blocker, "events.jsonl"));
      sink.emit({ type: "deactivated", at: at(1), skill: "a" });
      await sink.flush();
      sink.emit({ type: "deactivated", at: at(1), skill: "b" });
      await sink.flush();
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.includes("skillshelf: could not write events"))).toHaveLength(1);
    } finally {
      process.off("warning", listener);
    }
  });
});

describe("readEvents / parseEvents", () => {
  it("reads a missing file as an empty log", async () => {
    expect(await readEvents(path.join(dir, "none.jsonl"))).toEqual({ events: [], invalidLines: [] });
  });

  it("skips and locates lines that are not events (a torn write, a hand edit)", () => {
    const text = [
      JSON.stringify({ type: "deactivated", at: at(1), skill: "a" }),
      '{"type":"activated","at":',
      "",
      "[1,2]",
      JSON.stringify({ type: "deactivated", skill: "no time" }),
      JSON.stringify({ type: "deactivated", at: at(2), skill: "b" }),
    ].join("\n");
    const { events, invalidLines } = parseEvents(text);
    expect(events.map((e) => (e as { skill: string }).skill)).toEqual(["a", "b"]);
    expect(invalidLines).toEqual([2, 4, 5]);
  });
});

describe("memoryEventSink", () => {
  it("keeps events and clears", () => {
    const sink = memoryEventSink();
    sink.emit({ type: "deactivated", at: at(1), skill: "a" });
    expect(sink.events).toHaveLength(1);
    sink.clear();
    expect(sink.events).toEqual([]);
  });
});

describe("summarizeEvents", () => {
  const events: SkillEvent[] = [
    {
      type: "candidates",
      at: at(1),
      message: "write an article",
      candidates: [
        { name: "writer", score: 0.9, reasons: [] },
        { name: "editor", score: 0.5, reasons: [] },
      ],
      vetoed: [],
      ambiguous: false,
    },
    { type: "activated", at: at(1), skill: "writer", by: "model" },
    { type: "activated", at: at(20), skill: "writer", by: "user", args: "x" },
    { type: "activated", at: at(2), skill: "old-skill", by: "code" },
    {
      type: "activation-refused",
      at: at(21),
      skill: "rename",
      by: "model",
      error_type: "MODEL_INVOCATION_DISABLED",
    },
    { type: "activation-refused", at: at(21), skill: "typo", by: "model", error_type: "NOT_FOUND" },
    { type: "skill-read", at: at(25), skill: "reader", path: "/s/reader/SKILL.md" },
    { type: "tool-blocked", at: at(22), tool: "execute", active: ["writer"], skill: "writer" },
    { type: "tool-blocked", at: at(23), tool: "execute", active: ["writer", "editor"] },
    { type: "tool-blocked", at: at(23), tool: "delete_file", active: ["writer"], skill: "writer" },
    { type: "delegated", at: at(24), role: "researcher", task: "t", tools: [] },
  ];

  it("counts use per skill, by whom, with offers, refusals and reads", () => {
    const summary = summarizeEvents(events, { now: new Date(at(30)) });
    expect(summary.events).toBe(events.length);
    expect(summary.from).toBe(at(1));
    expect(summary.to).toBe(at(25));
    expect(summary.skills[0]).toEqual({
      name: "writer",
      activations: 2,
      byModel: 1,
      byUser: 1,
      byCode: 0,
      refusals: 0,
      offered: 1,
      reads: 0,
      lastUsed: at(20),
    });
    expect(summary.skills.find((s) => s.name === "rename")?.refusals).toBe(1);
    expect(summary.skills.find((s) => s.name === "typo")).toBeUndefined();
    expect(summary.skills.find((s) => s.name === "reader")).toMatchObject({ reads: 1, lastUsed: at(25) });
    expect(summary.refusals).toEqual({ total: 2, byType: { MODEL_INVOCATION_DISABLED: 1, NOT_FOUND: 1 } });
    expect(summary.delegations).toEqual({ total: 1, byRole: { researcher: 1 } });
  });

  it("counts blocked calls by tool and by the skill that blocked them", () => {
    const { blocked } = summarizeEvents(events, { now: new Date(at(30)) });
    expect(blocked.total).toBe(3);
    expect(blocked.byTool).toEqual([
      { tool: "execute", count: 2 },
      { tool: "delete_file", count: 1 },
    ]);
    // The event without `skill` (an older log) counts for each active skill.
    expect(blocked.bySkill).toEqual([
      { skill: "writer", count: 3 },
      { skill: "editor", count: 1 },
    ]);
  });

  it("lists zero-use skills over N days, including shelf skills the log never mentions", () => {
    const summary = summarizeEvents(events, {
      now: new Date(at(30)),
      zeroUseDays: 14,
      skills: ["writer", "old-skill", "never-seen", "reader"],
    });
    expect(summary.zeroUse.days).toBe(14);
    expect(summary.zeroUse.since).toBe(new Date(Date.parse(at(30)) - 14 * 86_400_000).toISOString());
    // writer used on day 20 and reader read on day 25 are inside the window.
    expect(summary.zeroUse.skills).toEqual(["editor", "never-seen", "old-skill", "rename"]);
    const longer = summarizeEvents(events, {
      now: new Date(at(30)),
      zeroUseDays: 60,
      skills: ["never-seen"],
    });
    expect(longer.zeroUse.skills).toEqual(["editor", "never-seen", "rename"]);
  });

  it("summarises an empty log", () => {
    const summary = summarizeEvents([], { skills: ["a"] });
    expect(summary.events).toBe(0);
    expect(summary.from).toBeUndefined();
    expect(summary.zeroUse.skills).toEqual(["a"]);
    expect(summary.blocked).toEqual({ total: 0, byTool: [], bySkill: [] });
  });
});
