/**
 * The session lifecycle as this adapter runs it: one core session per model call, shared by
 * the plan, the response and every tool call of it; skill tools registered per step; role
 * sub-agents bounded by the parent's active skills; the embedding signal on the plan's path.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShelf, type Shelf } from "@skillshelf/core";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { generateText, isStepCount, type ModelMessage } from "ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSkills } from "./index.js";
import { type Fixture, hostTools, skillFixture } from "./test-utils/fixtures.js";
import { offeredTools, scriptedModel, systemText } from "./test-utils/mock-model.js";

const ask = (text: string): ModelMessage[] => [{ role: "user", content: text }];

const AUDIT = `---
name: audit
description: Audit the code base for risky patterns.
triggers: [audit]
allowed-tools: read_file Task
---
Audit the code; delegate deep dives to the developer role.
`;

describe("skills over a shelf in a temp folder", () => {
  let root: string;
  let shelf: Shelf;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "skillshelf-ai-sdk-lifecycle-"));
    await mkdir(join(root, ".skillshelf", "skills", "audit"), { recursive: true });
    await writeFile(join(root, ".skillshelf", "skills", "audit", "SKILL.md"), AUDIT);
    shelf = await createShelf({ root, userDirs: [], events: false });
  });
  afterEach(async () => {
    await shelf.close();
    await rm(root, { recursive: true, force: true });
  });

  it("opens at most one session per model call: 3 calls, 1 activation, 2 tool calls", async () => {
    const opened = vi.spyOn(shelf, "openSession");
    const built = vi.spyOn(shelf, "session");
    const skills = await createSkills({ shelf, onDiagnostic: () => {} });
    const tools = hostTools();
    const model = scriptedModel((_call, i) => {
      if (i === 0) return { toolCalls: [{ name: "skill_audit" }] };
      if (i === 1)
        return {
          toolCalls: [
            { name: "read_file", input: { path: "a.ts" } },
            { name: "read_file", input: { path: "b.ts" } },
          ],
        };
      return { text: "Audited." };
    });
    await generateText({
      model,
      messages: ask("audit the repository"),
      stopWhen: isStepCount(5),
      ...skills.wrap({ tools }),
    });
    expect(model.calls).toHaveLength(3);
    expect(tools.read_file?.execute).toHaveBeenCalledTimes(2);
    expect(opened).toHaveBeenCalledTimes(3);
    expect(built).not.toHaveBeenCalled();
  });

  it("answers a call to a skill tool that is registered but no longer offered with core's result", async () => {
    const skills = await createSkills({ shelf, onDiagnostic: () => {} });
    const model = scriptedModel((_call, i) =>
      i < 2 ? { toolCalls: [{ name: "skill_audit" }] } : { text: "ok" },
    );
    const result = await generateText({
      model,
      messages: ask("audit the repository"),
      stopWhen: isStepCount(4),
      ...skills.wrap({ tools: hostTools() }),
    });
    expect(offeredTools(model.calls[1])).not.toContain("skill_audit");
    expect(result.steps[1]?.content.some((part) => part.type === "tool-error")).toBe(false);
    expect(result.steps[1]?.toolResults[0]?.output).toMatchObject({
      status: "error",
      error_type: "ALREADY_ACTIVE",
    });
  });

  it("ends a skill through end_skill, and a later request gets every tool again", async () => {
    const skills = await createSkills({ shelf, onDiagnostic: () => {} });
    const tools = hostTools();
    const messages: ModelMessage[] = ask("audit the repository");
    const first = scriptedModel((_call, i) =>
      i === 0
        ? { toolCalls: [{ name: "skill_audit" }] }
        : i === 1
          ? { toolCalls: [{ name: "end_skill" }] }
          : { text: "Done." },
    );
    const result = await generateText({
      model: first,
      messages,
      stopWhen: isStepCount(5),
      ...skills.wrap({ tools }),
    });
    expect(offeredTools(first.calls[1])).toContain("end_skill");
    expect(result.steps[1]?.toolResults[0]?.output).toMatchObject({
      status: "success",
      data: { ended: ["audit"] },
    });
    // Its limits hold until the user's next message…
    expect(offeredTools(first.calls[2])).not.toContain("send_email");
    expect(systemText(first.calls[2])).not.toContain("<skill_content");

    // …and the next request has every tool.
    const next = [...messages, ...result.responseMessages, ...ask("now email the team")];
    const second = scriptedModel(() => ({ text: "Sent." }));
    await generateText({ model: second, messages: next, ...skills.wrap({ tools }) });
    expect(offeredTools(second.calls[0])).toContain("send_email");
    expect(offeredTools(second.calls[0])).not.toContain("end_skill");
  });

  it("bounds a role sub-agent by the parent's active skill, and limits its steps to core's maxSteps", async () => {
    const skills = await createSkills({ shelf, onDiagnostic: () => {} });
    const tools = hostTools();
    // A sub-agent that never stops calling tools: core's step limit ends it.
    const sub = scriptedModel(() => ({ toolCalls: [{ name: "read_file", input: { path: "x" } }] }));
    const delegateTools = skills.roleTools({ model: sub, tools });
    const parent = scriptedModel((_call, i) => {
      if (i === 0) return { toolCalls: [{ name: "skill_audit" }] };
      if (i === 1)
        return {
          toolCalls: [{ name: "delegate", input: { role: "developer", task: "Check src/ for eval()." } }],
        };
      return { text: "Audit done." };
    });
    const result = await generateText({
      model: parent,
      messages: ask("audit the repository"),
      stopWhen: isStepCount(4),
      ...skills.wrap({ tools: { ...tools, ...delegateTools } }),
    });
    const output = result.steps[1]?.toolResults[0]?.output as {
      status: string;
      data: { tools: string[] };
      message: string;
    };
    expect(output.status).toBe("success");
    // The developer role may use bash and write_file; the audit skill allows neither.
    expect(output.data.tools).toEqual(["read_file"]);
    expect(output.message).toContain("It ran without");
    expect(offeredTools(sub.calls[0])).toEqual(["read_file"]);
    const prepared = shelf.prepareDelegation({ role: "developer", task: "x" }, ["read_file"]);
    expect(prepared.status === "success" && sub.calls.length === prepared.data.maxSteps).toBe(true);
  });
});

describe("the embedding signal", () => {
  // A deterministic stand-in for an embedding model: texts about the same concept point the
  // same way whatever words they use.
  const embed = async (texts: string[]) =>
    texts.map((t) => [/invoice|receipt|expense|reimburs/i.test(t) ? 1 : 0, 0.05]);
  let root: string;
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("reaches the plan: a paraphrase with no word in common gets its skill tool", async () => {
    root = await mkdtemp(join(tmpdir(), "skillshelf-ai-sdk-embed-"));
    await mkdir(join(root, ".skillshelf", "skills", "expenses"), { recursive: true });
    await writeFile(
      join(root, ".skillshelf", "skills", "expenses", "SKILL.md"),
      "---\nname: expenses\ndescription: File an expense report from invoices and receipts.\n---\nFile it.\n",
    );
    const shelf = await createShelf({ root, userDirs: [], events: false, matcher: { embed } });
    const skills = await createSkills({ shelf, onDiagnostic: () => {} });
    const model = scriptedModel(() => ({ text: "ok" }));
    await generateText({
      model,
      messages: ask("Can I get reimbursed for the taxi I took yesterday?"),
      ...skills.wrap({ tools: hostTools() }),
    });
    await shelf.close();
    expect(offeredTools(model.calls[0])).toContain("skill_expenses");
  });
});

describeWithSharedData("the session a UI shows", () => {
  let fixture: Fixture;
  beforeEach(async () => {
    fixture = await skillFixture();
  });
  afterEach(() => fixture.cleanup());

  it("skills.session(messages) is the state after the conversation", async () => {
    const skills = await createSkills({ shelf: fixture.shelf, onDiagnostic: () => {} });
    const session = skills.session(ask("/batch-rename *.jpg holiday-{n}"), hostTools());
    expect(session.active().map((s) => s.name)).toEqual(["batch-rename"]);
  });
});
