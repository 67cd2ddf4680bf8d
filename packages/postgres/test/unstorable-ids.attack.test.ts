/**
 * A read by an id that holds a NUL or a lone surrogate (a session id a host took from a
 * request, a skill name a model typed, a proposal id a user pasted): PostgreSQL refuses such
 * a character in a text parameter, so the read threw instead of answering. Writes store it
 * as U+FFFD; a read maps it the same way, so it finds what such a write stored and answers
 * "nothing" for anything else.
 */
import { ImproveError, type SkillEvent } from "@skillshelf/core";
import { describe, expect, it } from "vitest";
import { createPostgresStore } from "../src/index.js";
import { databaseUrl, freshSchema, proposalFor } from "./fixtures/project.js";

const open = () => createPostgresStore({ connectionString: databaseUrl, schema: freshSchema() });

describe.skipIf(!databaseUrl)("reads by ids PostgreSQL cannot store as text", () => {
  it("events by session, thread, run and skill find the events such ids were stored under", async () => {
    const store = await open();
    store.events.emit({
      type: "activated",
      at: new Date().toISOString(),
      skill: "notes\u0000writer",
      by: "model",
      session: "s\u0000one",
      thread: "t\ud800",
      run: "r\u0000",
    } as unknown as SkillEvent);
    await store.flush();
    for (const query of [
      { session: "s\u0000one" },
      { thread: "t\ud800" },
      { run: "r\u0000" },
      { skill: "notes\u0000writer" },
    ]) {
      const { events } = await store.events.read(query);
      expect(events.map((e) => (e as { skill?: string }).skill)).toEqual(["notes\ufffdwriter"]);
    }
    expect((await store.events.read({ session: "other\u0000" })).events).toEqual([]);
    await store.close();
  });

  it("the ledger by skill and type", async () => {
    const store = await open();
    await store.ledger.append({ type: "rejected", skill: "notes\u0000writer", before: null, after: null });
    expect((await store.ledger.read({ skill: "notes\u0000writer" })).records).toMatchObject([
      { skill: "notes\ufffdwriter" },
    ]);
    expect((await store.ledger.read({ types: ["rejected\u0000"] as never })).records).toEqual([]);
    await store.close();
  });

  it("a proposal by an id with a NUL: saved and found again, or not found", async () => {
    const store = await open();
    const proposal = { ...proposalFor("release-notes", "h"), id: "20261202-0000\u0000x" };
    await store.proposals.save(proposal);
    expect((await store.proposals.load("20261202-0000\u0000x")).skill).toBe("release-notes");
    await expect(store.proposals.load("nope\u0000")).rejects.toBeInstanceOf(ImproveError);
    await expect(store.proposals.update("nope\u0000", async (p) => p)).rejects.toBeInstanceOf(ImproveError);
    await store.close();
  });

  it("a kept version by an id with a NUL is not found", async () => {
    const store = await open();
    await expect(store.history.read("release-notes", "v\u0000")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await store.close();
  });
});
