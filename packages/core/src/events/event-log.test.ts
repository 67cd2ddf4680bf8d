/**
 * The default event log: whole lines from concurrent processes, bounded size, no verbatim
 * user text unless asked for, and a state folder that keeps it out of git.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { disposeWriterBuild, spawnWriter, type WriterProcess } from "../history/test-utils/spawn-writer.js";
import type { SkillEvent } from "../types.js";
import { jsonlEventSink, rotatedLogPath } from "./jsonl-sink.js";
import { readEvents } from "./read-events.js";
import { STATE_GITIGNORE } from "./state-gitignore.js";

const SECRET = "Please reset the password for alice@example.com to hunter2 and email it to me";
const candidates = (message: string): SkillEvent => ({
  type: "candidates",
  at: new Date().toISOString(),
  message,
  candidates: [],
  vetoed: [],
  ambiguous: false,
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillshelf-event-log-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));
const children: WriterProcess[] = [];
afterAll(async () => {
  for (const child of children) child.child.kill("SIGKILL");
  await disposeWriterBuild();
});

describe("user text in the log", () => {
  it("is a sha256 prefix and a short prefix by default", async () => {
    const file = path.join(dir, "state", "events.jsonl");
    const sink = jsonlEventSink(file);
    sink.emit(candidates(SECRET));
    sink.emit({ type: "activated", at: new Date().toISOString(), skill: "x", by: "user", args: SECRET });
    sink.emit({ type: "delegated", at: new Date().toISOString(), role: "r", task: SECRET, tools: [] });
    await sink.flush();
    const text = await readFile(file, "utf8");
    expect(text).not.toContain("hunter2");
    const [first, second, third] = (await readEvents(file)).events as unknown as Array<
      Record<string, string>
    >;
    const hash = createHash("sha256").update(SECRET).digest("hex").slice(0, 16);
    expect(first).toMatchObject({ message: "Please reset the passwor…", messageSha256: hash });
    expect(second).toMatchObject({ argsSha256: hash });
    expect(third).toMatchObject({ taskSha256: hash });
  });

  it("is kept verbatim only when asked, and not at all with text: hash", async () => {
    const full = jsonlEventSink(path.join(dir, "full.jsonl"), { text: "full" });
    full.emit(candidates(SECRET));
    await full.flush();
    expect((await readEvents(path.join(dir, "full.jsonl"))).events[0]).toMatchObject({ message: SECRET });
    const hashed = jsonlEventSink(path.join(dir, "hash.jsonl"), { text: "hash" });
    hashed.emit(candidates(SECRET));
    await hashed.flush();
    expect((await readEvents(path.join(dir, "hash.jsonl"))).events[0]).toMatchObject({ message: "" });
  });
});

describe("the prefix of user text", () => {
  it("counts characters, not UTF-16 units, and never splits a pair", async () => {
    const file = path.join(dir, "events.jsonl");
    const sink = jsonlEventSink(file, { prefixLength: 4 });
    for (const message of ["😀😀😀😀", "😀😀😀😀😀", "ab😀cd", "abcd", "abcde", ""])
      sink.emit(candidates(message));
    await sink.flush();
    const messages = (await readEvents(file)).events.map((e) => (e as { message: string }).message);
    expect(messages).toEqual(["😀😀😀😀", "😀😀😀😀…", "ab😀c…", "abcd", "abcd…", ""]);
  });
});

describe("the state folder", () => {
  it("gets a .gitignore for runtime state when the log creates it; an existing one is left alone", async () => {
    const state = path.join(dir, ".skillshelf");
    const sink = jsonlEventSink(path.join(state, "events.jsonl"));
    sink.emit(candidates("hi"));
    await sink.flush();
    const ignore = await readFile(path.join(state, ".gitignore"), "utf8");
    expect(ignore).toBe(STATE_GITIGNORE);
    expect(ignore).toMatch(/^events\*\.jsonl$/m);
    expect(ignore).toMatch(/^usage\.json$/m);
    expect(ignore).toMatch(/^workflows\/$/m);
    expect(ignore).not.toMatch(/^history/m);

    const own = path.join(dir, "own");
    await rm(own, { recursive: true, force: true });
    await import("node:fs/promises").then((fs) => fs.mkdir(own));
    await writeFile(path.join(own, ".gitignore"), "mine\n");
    const other = jsonlEventSink(path.join(own, "events.jsonl"));
    other.emit(candidates("hi"));
    await other.flush();
    expect(await readFile(path.join(own, ".gitignore"), "utf8")).toBe("mine\n");
  });
});

describe("rotation", () => {
  it("moves the log aside past maxBytes and keeps at most `keep` old ones", async () => {
    const file = path.join(dir, "events.jsonl");
    const sink = jsonlEventSink(file, { maxBytes: 2_000, keep: 2, text: "full" });
    for (let i = 0; i < 40; i++) {
      sink.emit(candidates(`message ${i} `.padEnd(200, ".")));
      await sink.flush();
    }
    const sizes = await Promise.all(
      [file, rotatedLogPath(file, 1), rotatedLogPath(file, 2)].map(async (f) => (await readFile(f)).length),
    );
    for (const size of sizes) expect(size).toBeLessThanOrEqual(2_000);
    expect(existsSync(rotatedLogPath(file, 3))).toBe(false);
    const newest = (await readEvents(file)).events.at(-1) as { message: string };
    expect(newest.message).toMatch(/^message 39 /);
    const older = (await readEvents(rotatedLogPath(file, 1))).events;
    expect(older.length).toBeGreaterThan(0);
    expect((await readEvents(rotatedLogPath(file, 2))).invalidLines).toEqual([]);
  });
});

describe("a process that ends", () => {
  it("writes the events it emitted without a flush, redacted", async () => {
    const writer = await spawnWriter("events-end", dir, 5);
    children.push(writer);
    writer.child.stdin!.end();
    expect(await writer.nextLine()).toBe("emitted");
    expect(await writer.exited).toEqual({ code: 0, signal: null });
    const file = path.join(dir, "events.jsonl");
    expect(await readFile(file, "utf8")).not.toContain("hunter2");
    const { events, invalidLines } = await readEvents(file);
    expect(invalidLines).toEqual([]);
    expect(events.map((e) => (e as { message: string }).message)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `${i}: reset the password fo…`),
    );
  }, 60_000);
});

describe("concurrent writers", () => {
  it("four processes appending batches of over 512 KiB never tear a line", async () => {
    const PROCESSES = 4;
    const EVENTS = 300;
    const BYTES = 4_000; // a batch of 300 × 4 KB = 1.2 MB per process
    const writers = await Promise.all(
      Array.from({ length: PROCESSES }, () => spawnWriter("events", dir, EVENTS, String(BYTES))),
    );
    children.push(...writers);
    for (const writer of writers) expect(await writer.nextLine()).toBe("ready");
    for (const writer of writers) writer.child.stdin!.write("go\n");
    for (const writer of writers) expect(await writer.nextLine()).toBe("done");

    const { events, invalidLines } = await readEvents(path.join(dir, "events.jsonl"));
    expect(invalidLines).toEqual([]);
    expect(events).toHaveLength(PROCESSES * EVENTS);
    for (const event of events) expect((event as { message: string }).message).toHaveLength(BYTES);
  }, 60_000);
});
