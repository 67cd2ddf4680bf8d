/**
 * A user's "/name" in a stateless host (the AI SDK, a Mastra thread): no tool result records
 * the activation, so every model call replays the command from the history and reads the
 * skill's limits from the file as it is then. An edit between two calls of the conversation
 * (a model's write that slipped through, another process) widens the running activation.
 *
 * KNOWN GAP, not fixed in this round: the `it.fails` below passes while the hole is open and
 * fails once it is closed (then make it a plain `it`). A checkpointing host (state
 * round-trip) pins the limits, as the second test shows.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";
import type { HistoryItem } from "../types.js";

const TOOLS = ["read_file", "send_email"];
const READER = "---\nname: reader\ndescription: Reads files.\nallowed-tools: read_file\n---\nRead.\n";
const WIDE =
  "---\nname: reader\ndescription: Reads files.\nallowed-tools: read_file send_email\n---\nRead.\n";

let root: string;
let shelf: Shelf;
const file = () => path.join(root, ".skillshelf", "skills", "reader", "SKILL.md");
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-user-pin-"));
  await mkdir(path.dirname(file()), { recursive: true });
  await writeFile(file(), READER);
  shelf = await createShelf({ root, userDirs: [], events: false, protectSkillFiles: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

const mail = { name: "send_email", input: { to: "x@example.com" } };

describe("a user's /name, its file widened mid-activation", () => {
  it.fails("stateless (history replay): the running activation keeps the limits it started with", async () => {
    const history: HistoryItem[] = [{ kind: "user", text: "/reader the notes" }];
    const first = shelf.session({ history, tools: TOOLS });
    first.plan();
    expect(first.guard(mail).allowed).toBe(false);
    await writeFile(file(), WIDE);
    await shelf.refresh({ full: true });
    history.push({
      kind: "tool-call",
      id: "w",
      toolName: "read_file",
      input: { path: "notes" },
      output: "ok",
    });
    const next = shelf.session({ history, tools: TOOLS });
    next.plan();
    expect(next.guard(mail).allowed).toBe(false);
  });

  it("checkpointed (state round-trip): pinned (checked fine)", async () => {
    const first = shelf.session({ message: "/reader the notes", tools: TOOLS });
    first.plan();
    await writeFile(file(), WIDE);
    await shelf.refresh({ full: true });
    const next = shelf.session({ state: first.toJSON(), message: "ok, go on", tools: TOOLS });
    next.plan();
    expect(next.state.active.map((a) => a.name)).toEqual(["reader"]);
    expect(next.guard(mail).allowed).toBe(false);
  });
});
