/**
 * Seed 001 §5.4, replayed: a user asks about "the last three months", then about "this
 * month". A model that fills parameters from everything it reads picks up the earlier range;
 * the guard tells it to use the current request, which the plan quotes apart, so the same
 * model picks the right one. The model here is scripted to behave exactly that way.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createShelf } from "../shelf.js";
import type { ModelReply, ModelView } from "../testing/driver.js";
import { referenceDriver } from "../testing/reference-driver.js";

const SKILL = `---
name: member-query
description: Query member spending and growth (top members, totals) for a time range.
triggers: [members, member spending, member growth]
---
Query the members for $time_range (top $limit).
`;

const SCHEMA = {
  type: "object",
  properties: {
    time_range: { type: "string", enum: ["current_month", "last_month", "last_3_months"] },
    limit: { type: "integer", minimum: 1, maximum: 100, default: 10 },
  },
  required: ["time_range"],
  additionalProperties: false,
};

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/** What a time phrase means, read the way a model does: the last one it notices wins. */
function rangeIn(text: string): string | undefined {
  if (/three months/i.test(text)) return "last_3_months";
  if (/this month/i.test(text)) return "current_month";
  return undefined;
}

/**
 * Fills `time_range` from the `<current_request>` block when the plan gives one; otherwise
 * from every user message it has read, so an earlier "three months" leaks in (the seed's bug).
 */
function scriptedModel(seen: ModelView[]) {
  return (view: ModelView): ModelReply => {
    seen.push(view);
    const last = view.messages.at(-1);
    if (last?.role === "tool") return { text: "Here are the numbers." };
    if (!view.tools.some((t) => t.name === "skill_member-query")) return { text: "No skill for that." };
    const quoted = /<current_request>\n([\s\S]*?)\n<\/current_request>/.exec(view.system)?.[1];
    const history = view.messages.flatMap((m) => (m.role === "user" ? [m.text] : []));
    const range = quoted !== undefined ? rangeIn(quoted) : history.map(rangeIn).find((r) => r !== undefined);
    return { calls: [{ name: "skill_member-query", input: { time_range: range ?? "current_month" } }] };
  };
}

async function story() {
  const root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-member-query-"));
  roots.push(root);
  const dir = path.join(root, ".skillshelf", "skills", "member-query");
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "SKILL.md"), SKILL);
  await writeFile(path.join(dir, "schema.json"), JSON.stringify(SCHEMA, null, 2));
  const shelf = await createShelf({ root, userDirs: [], events: false });
  const seen: ModelView[] = [];
  const conversation = await referenceDriver.conversation({
    shelf,
    tools: [],
    system: "You are the analytics agent.",
    model: scriptedModel(seen),
  });
  await conversation.send("How did member growth look over the last three months?");
  await conversation.send("Show me the top 10 members by spending this month.");
  await shelf.close();
  return { seen };
}

describe("the member-query story (history must not pollute parameters)", () => {
  it("with typed parameters, the second request's range is its own: current_month, not last_3_months", async () => {
    const { seen } = await story();
    // The model's calls, in order, as the conversation recorded them.
    const last = seen.at(-1)!;
    const calls = last.messages.flatMap((m) => (m.role === "assistant" ? (m.calls ?? []) : []));
    expect(calls.map((c) => (c.input as { time_range?: string }).time_range)).toEqual([
      "last_3_months",
      "current_month",
    ]);
    const results = last.messages.flatMap((m) => (m.role === "tool" ? [m.result] : []));
    expect(results.at(-1)).toMatchObject({
      status: "success",
      data: { arguments: { time_range: "current_month", limit: 10 } },
    });

    // What the model read when it filled the second call: the rule, today's date, and the
    // current request quoted apart from the history it also sees.
    const second = seen.find((v) => v.messages.at(-1)?.role === "user" && v.messages.length > 1)!;
    expect(second.system).toContain("fill a skill's arguments only from the user's current request");
    expect(second.system).toMatch(/Today is \w+day, \d{4}-\d{2}-\d{2}/);
    expect(second.system).toContain(
      "<current_request>\nShow me the top 10 members by spending this month.\n</current_request>",
    );
    expect(second.system).not.toContain("<current_request>\nHow did member growth");
    expect(second.messages.some((m) => m.role === "user" && m.text.includes("three months"))).toBe(true);
    const tool = second.tools.find((t) => t.name === "skill_member-query")!;
    expect(tool.inputSchema).toMatchObject({
      properties: { time_range: { enum: ["current_month", "last_month", "last_3_months"] } },
      required: ["time_range"],
    });
    // The body the skill then runs with reads the right range.
    expect(last.system).toContain("Query the members for current_month (top 10).");
  });

  it("the quoted request is what keeps the earlier range out: without it, the same model carries it over", async () => {
    const { seen } = await story();
    const second = seen.find((v) => v.messages.at(-1)?.role === "user" && v.messages.length > 1)!;
    const unguarded: ModelView = {
      ...second,
      system: second.system.replace(/<current_request>[\s\S]*?<\/current_request>/, ""),
    };
    const reply = scriptedModel([])(unguarded);
    expect(reply).toEqual({
      calls: [{ name: "skill_member-query", input: { time_range: "last_3_months" } }],
    });
  });
});
