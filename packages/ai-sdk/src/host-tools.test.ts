/**
 * Host tools whose names an activation or delegation tool would otherwise take: the host's
 * tool keeps its name and runs as the host's, on every step and in every rebuilt session.
 */

import { describeWithSharedData } from "@skillshelf/test-utils";
import { generateText, isStepCount, jsonSchema, type ModelMessage, tool } from "ai";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createSkills, type Skills } from "./index.js";
import { type Fixture, hostTools, MARKITDOWN_BODY, skillFixture } from "./test-utils/fixtures.js";
import { type CallOptions, offeredTools, scriptedModel, systemText } from "./test-utils/mock-model.js";

let fixture: Fixture;
let skills: Skills;
beforeEach(async () => {
  fixture = await skillFixture();
  skills = await createSkills({ shelf: fixture.shelf, onDiagnostic: () => {} });
});
afterEach(() => fixture.cleanup());

const ask = (text: string): ModelMessage[] => [{ role: "user", content: text }];
const CONVERT = "Convert quarterly-report.pdf to Markdown so I can paste it into the wiki";

/** A host tool of this name whose `execute` is a spy. */
function hostTool(name: string) {
  const execute = vi.fn(async () => ({ ok: true, tool: name }));
  return tool({
    description: `The host's own ${name}.`,
    inputSchema: jsonSchema<Record<string, unknown>>({ type: "object" }),
    execute,
  });
}

/** The name markitdown's activation tool was offered under, when `skill_markitdown` is taken. */
const alternativeName = (call: CallOptions | undefined) =>
  offeredTools(call).find((name) => name.startsWith("skill_markitdown_"));

describeWithSharedData("a host tool named skill_<skill>", () => {
  it("runs as the host's tool, is never replayed as an activation, and the skill stays activatable under its other name", async () => {
    const tools = { ...hostTools(), skill_markitdown: hostTool("skill_markitdown") };
    const model = scriptedModel((call, i) => {
      if (i === 0) return { toolCalls: [{ name: "skill_markitdown", input: {} }] };
      if (i === 1) return { toolCalls: [{ name: alternativeName(call)!, input: {} }] };
      return { text: "done" };
    });
    const result = await generateText({
      model,
      messages: ask(CONVERT),
      stopWhen: isStepCount(4),
      ...skills.wrap({ messages: ask(CONVERT), tools }),
    });

    expect(model.calls).toHaveLength(3);
    const [first, second, third] = model.calls;
    expect(offeredTools(first)).toContain("skill_markitdown");
    expect(alternativeName(first)).toMatch(/^skill_markitdown_[0-9a-f]{8}$/);
    // Step 0's call ran the host's tool; step 1 (rebuilt from the messages) has no skill active.
    expect(tools.skill_markitdown.execute).toHaveBeenCalledTimes(1);
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({ ok: true, tool: "skill_markitdown" });
    expect(systemText(second)).not.toContain(MARKITDOWN_BODY);
    expect(offeredTools(second)).toContain("send_email");
    // The alternative name activates the skill.
    expect(result.steps[1]?.toolResults[0]?.output).toMatchObject({
      status: "success",
      data: { name: "markitdown" },
    });
    expect(systemText(third)).toContain(MARKITDOWN_BODY);
    expect(offeredTools(third)).not.toContain("send_email");
    expect(fixture.events.filter((e) => e.type === "activated")).toEqual([
      expect.objectContaining({ skill: "markitdown", by: "model" }),
    ]);
  });

  it("keeps the host's activate_skill: the catalog's tool is offered as skillshelf_activate_skill", async () => {
    const tools = { ...hostTools(), activate_skill: hostTool("activate_skill") };
    const model = scriptedModel((_call, i) =>
      i === 0 ? { toolCalls: [{ name: "activate_skill", input: { name: "markitdown" } }] } : { text: "ok" },
    );
    await generateText({
      model,
      messages: ask("hello"),
      stopWhen: isStepCount(3),
      ...skills.wrap({ messages: ask("hello"), tools }),
    });
    expect(offeredTools(model.calls[0])).toEqual(
      expect.arrayContaining(["activate_skill", "skillshelf_activate_skill"]),
    );
    expect(tools.activate_skill.execute).toHaveBeenCalledTimes(1);
    expect(systemText(model.calls[1])).not.toContain(MARKITDOWN_BODY);
    expect(fixture.events.some((e) => e.type === "activated")).toBe(false);
  });

  it("reports the clash: to onDiagnostic, and by default once on console.warn", async () => {
    const seen: string[] = [];
    const own = await createSkills({ shelf: fixture.shelf, onDiagnostic: (d) => seen.push(d.code) });
    const tools = { ...hostTools(), skill_markitdown: hostTool("skill_markitdown") };
    const model = scriptedModel(() => ({ text: "ok" }));
    await generateText({ model, messages: ask(CONVERT), ...own.wrap({ messages: ask(CONVERT), tools }) });
    expect(seen).toContain("tool-name-clash");

    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const quiet = await createSkills({ shelf: fixture.shelf });
      for (let i = 0; i < 2; i++) {
        await generateText({
          model,
          messages: ask(CONVERT),
          ...quiet.wrap({ messages: ask(CONVERT), tools }),
        });
      }
      const clashes = warn.mock.calls.filter(([text]) => String(text).includes("tool-name-clash"));
      expect(clashes).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });
});

describeWithSharedData("a host tool named delegate", () => {
  it("is not replaced: roleTools() names the delegation tool skillshelf_delegate", async () => {
    const tools = { ...hostTools(), delegate: hostTool("delegate") };
    const sub = scriptedModel(() => ({ text: "findings" }));
    const roleTools = skills.roleTools({ model: sub, tools });
    expect(Object.keys(roleTools)).toEqual(["skillshelf_delegate"]);

    const parent = scriptedModel((_call, i) =>
      i === 0
        ? {
            toolCalls: [
              { name: "delegate", input: { anything: true } },
              { name: "skillshelf_delegate", input: { role: "researcher", task: "What changed in v2?" } },
            ],
          }
        : { text: "done" },
    );
    const result = await generateText({
      model: parent,
      messages: ask("Find out what changed in v2"),
      stopWhen: isStepCount(3),
      ...skills.wrap({ tools: { ...tools, ...roleTools } }),
    });
    expect(tools.delegate.execute).toHaveBeenCalledTimes(1);
    const outputs = result.steps[0]?.toolResults.map((r) => [r.toolName, r.output]);
    expect(outputs).toEqual([
      ["delegate", { ok: true, tool: "delegate" }],
      [
        "skillshelf_delegate",
        expect.objectContaining({ status: "success", data: expect.objectContaining({ role: "researcher" }) }),
      ],
    ]);
    // The sub-agent never gets either delegation tool.
    expect(offeredTools(sub.calls[0])).not.toContain("delegate");
    expect(offeredTools(sub.calls[0])).not.toContain("skillshelf_delegate");
  });

  it("without one, roleTools() offers the tool as delegate", () => {
    const roleTools = skills.roleTools({ model: scriptedModel(() => ({ text: "" })), tools: hostTools() });
    expect(Object.keys(roleTools)).toEqual(["delegate"]);
  });
});
