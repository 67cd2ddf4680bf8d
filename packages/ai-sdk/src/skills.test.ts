import { describeWithSharedData } from "@skillshelf/test-utils";
import {
  createAgentUIStream,
  generateText,
  isStepCount,
  type ModelMessage,
  readUIMessageStream,
  streamText,
  ToolLoopAgent,
  type ToolSet,
  type UIMessage,
} from "ai";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createSkills, type Skills } from "./index.js";
import {
  FACT_CHECKER_BODY,
  type Fixture,
  HOST_TOOL_NAMES,
  hostTools,
  MARKITDOWN_BODY,
  skillFixture,
} from "./test-utils/fixtures.js";
import {
  type CallOptions,
  isSkillshelfTool,
  offeredTools,
  type Script,
  scriptedModel,
  systemMessageCount,
  systemText,
} from "./test-utils/mock-model.js";

let fixture: Fixture;
let skills: Skills;
beforeEach(async () => {
  fixture = await skillFixture();
  skills = await createSkills({ shelf: fixture.shelf });
});
afterEach(() => fixture.cleanup());

const ask = (text: string): ModelMessage[] => [{ role: "user", content: text }];
const CONVERT = "Convert quarterly-report.pdf to Markdown so I can paste it into the wiki";
const MARKITDOWN_TOOLS = ["bash", "read_file", "write_file"];

/** The activation call a model would make for `skill`, using whichever tool it was offered. */
function activate(call: CallOptions, skill: string) {
  const offered = offeredTools(call);
  if (offered.includes(`skill_${skill}`)) return { name: `skill_${skill}`, input: {} };
  expect(offered).toContain("activate_skill");
  return { name: "activate_skill", input: { name: skill } };
}

/** Host tools offered on a call (activation tools aside). */
const hostOffered = (call: CallOptions | undefined) =>
  offeredTools(call).filter((name) => !isSkillshelfTool(name));

type Mode = "generateText" | "streamText";
async function run(mode: Mode, options: Parameters<typeof generateText>[0]) {
  if (mode === "generateText") return generateText(options);
  const result = streamText(options as Parameters<typeof streamText>[0]);
  await result.consumeStream();
  return { steps: await result.steps, response: await result.response, text: await result.text };
}

describeWithSharedData.each<Mode>(["generateText", "streamText"])("wrap() with %s", (mode) => {
  it("activates in step N and runs step N+1 under the skill: body in the instructions, tools restricted", async () => {
    const tools = hostTools();
    const model = scriptedModel((call, i) => {
      if (i === 0) return { toolCalls: [activate(call, "markitdown")] };
      if (i === 1) return { toolCalls: [{ name: "read_file", input: { path: "quarterly-report.pdf" } }] };
      return { text: "Here is the Markdown." };
    });

    const result = await run(mode, {
      model,
      instructions: "You are the wiki assistant.",
      messages: ask(CONVERT),
      stopWhen: isStepCount(5),
      ...skills.wrap({ messages: ask(CONVERT), tools }),
    });

    expect(model.calls).toHaveLength(3);
    const [before, after] = model.calls;
    // Step 0: nothing active, every host tool plus an activation tool; the body is not loaded yet.
    expect(hostOffered(before)).toEqual(HOST_TOOL_NAMES);
    expect(offeredTools(before).some((n) => n === "skill_markitdown" || n === "activate_skill")).toBe(true);
    expect(systemText(before)).not.toContain(MARKITDOWN_BODY);
    expect(systemText(before)).toContain("markitdown");
    // Step 1: markitdown's whitelist (Read Write Edit Bash → read_file write_file bash), body present.
    expect(hostOffered(after)).toEqual(MARKITDOWN_TOOLS);
    expect(systemText(after)).toContain(MARKITDOWN_BODY);
    // The host's own instructions stay first, as their own system message.
    expect(after?.prompt[0]).toEqual({ role: "system", content: "You are the wiki assistant." });
    expect(systemMessageCount(after)).toBe(2);
    // No system message was smuggled into the conversation itself.
    expect(after?.prompt.slice(systemMessageCount(after)).every((m) => m.role !== "system")).toBe(true);

    expect(tools.read_file?.execute).toHaveBeenCalledTimes(1);
    const activation = result.steps[0]?.toolResults[0];
    expect(activation?.output).toMatchObject({ status: "success", data: { name: "markitdown" } });
    expect(result.text).toBe("Here is the Markdown.");
  });

  it("hides a tool the skill rules out, and answers a call to it anyway with core's structured result", async () => {
    const tools = hostTools();
    const model = scriptedModel((call, i) => {
      if (i === 0) return { toolCalls: [activate(call, "markitdown")] };
      // A tool it saw before the skill hid it (models do this).
      if (i === 1) return { toolCalls: [{ name: "send_email", input: { to: "boss@example.com" } }] };
      return { text: "ok" };
    });
    const result = await run(mode, {
      model,
      messages: ask(CONVERT),
      stopWhen: isStepCount(5),
      ...skills.wrap({ messages: ask(CONVERT), tools }),
    });

    expect(offeredTools(model.calls[1])).not.toContain("send_email");
    expect(tools.send_email?.execute).not.toHaveBeenCalled();
    expect(fixture.events.filter((e) => e.type === "tool-blocked")).toEqual([
      expect.objectContaining({ tool: "send_email", skill: "markitdown", active: ["markitdown"] }),
    ]);
    // Not an SDK error (no NoSuchToolError, no repair text): the tool's result is core's object.
    expect(result.steps[1]?.content.some((part) => part.type === "tool-error")).toBe(false);
    expect(result.steps[1]?.toolResults[0]?.output).toMatchObject({
      status: "error",
      error_type: "TOOL_NOT_ALLOWED",
      message: expect.stringContaining('Tool "send_email" is not allowed while skill "markitdown" is active'),
    });
    // The loop went on, and the model read that object back as a JSON tool result.
    expect(model.calls).toHaveLength(3);
    const toolMessage = model.calls[2]?.prompt.filter((m) => m.role === "tool").at(-1);
    expect(toolMessage?.content[0]).toMatchObject({
      type: "tool-result",
      toolName: "send_email",
      output: { type: "json", value: { status: "error", error_type: "TOOL_NOT_ALLOWED" } },
    });
    expect(result.text).toBe("ok");
  });

  it("judges a host call in the same response as an activation as if the activation had happened", async () => {
    const tools = hostTools();
    const model = scriptedModel((call, i) => {
      if (i === 0) {
        return {
          toolCalls: [
            { name: "send_email", input: { to: "boss@example.com" } },
            activate(call, "markitdown"),
            { name: "read_file", input: { path: "quarterly-report.pdf" } },
          ],
        };
      }
      return { text: "ok" };
    });
    const result = await run(mode, {
      model,
      messages: ask(CONVERT),
      stopWhen: isStepCount(3),
      ...skills.wrap({ messages: ask(CONVERT), tools }),
    });

    expect(tools.send_email?.execute).not.toHaveBeenCalled();
    expect(tools.read_file?.execute).toHaveBeenCalledTimes(1);
    const outputs = Object.fromEntries(result.steps[0]!.toolResults.map((r) => [r.toolName, r.output]));
    expect(outputs.send_email).toMatchObject({ status: "error", error_type: "TOOL_NOT_ALLOWED" });
    expect(outputs.read_file).toMatchObject({ ok: true });
  });

  it("leaves other unparsable calls to the SDK and to the user's own repairToolCall", async () => {
    const tools = hostTools();
    const seen: string[] = [];
    const model = scriptedModel((_call, i) =>
      i === 0 ? { toolCalls: [{ name: "no_such_tool", input: {} }] } : { text: "ok" },
    );
    await run(mode, {
      model,
      messages: ask("hello"),
      stopWhen: isStepCount(3),
      ...skills.wrap({
        messages: ask("hello"),
        tools,
        repairToolCall: async ({ toolCall }) => {
          seen.push(toolCall.toolName);
          return null;
        },
      }),
    });
    expect(seen).toEqual(["no_such_tool"]);
    expect(fixture.events.some((e) => e.type === "tool-blocked")).toBe(false);
  });
});

describeWithSharedData("the execution-time guard", () => {
  it("returns core's TOOL_NOT_ALLOWED result and never calls execute when a skill forbids the tool", async () => {
    const tools = hostTools();
    const wrapped = skills.wrap({ tools });
    // A conversation in which markitdown was activated (as the client sends it back).
    const messages: ModelMessage[] = [
      ...ask(CONVERT),
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "a1", toolName: "activate_skill", input: { name: "markitdown" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "a1",
            toolName: "activate_skill",
            output: {
              type: "json",
              value: { status: "success", data: { name: "markitdown" }, message: "ok" },
            },
          },
        ],
      },
    ];
    const execute = (name: string) =>
      wrapped.tools[name]?.execute?.({ q: "x" }, { toolCallId: "c1", messages, context: undefined });

    expect(await execute("web_search")).toMatchObject({ status: "error", error_type: "TOOL_NOT_ALLOWED" });
    expect(tools.web_search?.execute).not.toHaveBeenCalled();
    expect(await execute("read_file")).toMatchObject({ ok: true, tool: "read_file" });
    expect(tools.read_file?.execute).toHaveBeenCalledTimes(1);
    // Before the activation everything runs.
    await wrapped.tools.web_search?.execute?.(
      {},
      { toolCallId: "c2", messages: ask(CONVERT), context: undefined },
    );
    expect(tools.web_search?.execute).toHaveBeenCalledTimes(1);
  });

  it("keeps a user's toModelOutput away from the blocked result", async () => {
    const tools: ToolSet = {
      ...hostTools(),
      web_search: {
        ...hostTools().web_search!,
        toModelOutput: ({ output }: { output: unknown }) => ({
          type: "text" as const,
          value: `results: ${(output as { hits: string[] }).hits.join()}`,
        }),
      },
    };
    const wrapped = skills.wrap({ tools });
    const blocked = { status: "error", error_type: "TOOL_NOT_ALLOWED", message: "no" };
    const toModelOutput = wrapped.tools.web_search?.toModelOutput;
    expect(await toModelOutput?.({ toolCallId: "c", input: {}, output: blocked })).toEqual({
      type: "json",
      value: blocked,
    });
    expect(await toModelOutput?.({ toolCallId: "c", input: {}, output: { hits: ["a", "b"] } })).toEqual({
      type: "text",
      value: "results: a,b",
    });
  });
});

describeWithSharedData("explicit invocation and disable-model-invocation", () => {
  it("never offers a disable-model-invocation skill to the model", async () => {
    const model = scriptedModel(() => ({ text: "ok" }));
    const message = ask("Please rename all the holiday photos in this folder to a consistent pattern");
    await generateText({
      model,
      messages: message,
      ...skills.wrap({ messages: message, tools: hostTools() }),
    });
    const call = model.calls[0];
    expect(offeredTools(call)).not.toContain("skill_batch-rename");
    const activateSkill = call?.tools?.find((t) => t.name === "activate_skill");
    if (activateSkill && "inputSchema" in activateSkill) {
      expect(JSON.stringify(activateSkill.inputSchema)).not.toContain("batch-rename");
    }
  });

  it('runs "/name args" from the last user message: body with arguments substituted, tools restricted', async () => {
    const tools = hostTools();
    const model = scriptedModel((_call, i) =>
      i === 0
        ? { toolCalls: [{ name: "list_files", input: { glob: "*.jpg" } }] }
        : { text: "Here is the plan." },
    );
    const message = ask("/batch-rename *.jpg holiday-{n}");
    await generateText({
      model,
      messages: message,
      stopWhen: isStepCount(3),
      ...skills.wrap({ messages: message, tools }),
    });
    for (const call of model.calls) {
      expect(systemText(call)).toContain("Rename the files matching `*.jpg` using the pattern `holiday-{n}`");
      expect(hostOffered(call)).toEqual(["list_files", "rename_file"]);
    }
    expect(tools.list_files?.execute).toHaveBeenCalledTimes(1);
  });
});

describeWithSharedData("events and usage", () => {
  it("records each activation, command and candidate list once, however often the state is rebuilt", async () => {
    const tools = hostTools();
    const model = scriptedModel((call, i) => {
      if (i === 0)
        return { toolCalls: [activate(call, "markitdown"), { name: "read_file", input: { path: "a" } }] };
      if (i === 1)
        return {
          toolCalls: [
            { name: "read_file", input: { path: "b" } },
            { name: "bash", input: {} },
          ],
        };
      return { text: "done" };
    });
    await generateText({
      model,
      messages: ask(CONVERT),
      stopWhen: isStepCount(4),
      ...skills.wrap({ messages: ask(CONVERT), tools }),
    });
    const kinds = fixture.events.map((e) => e.type);
    expect(kinds.filter((k) => k === "candidates")).toHaveLength(1);
    expect(fixture.events.filter((e) => e.type === "activated")).toEqual([
      expect.objectContaining({ skill: "markitdown", by: "model" }),
    ]);

    fixture.events.length = 0;
    const command = ask("/batch-rename *.jpg holiday-{n}");
    const second = scriptedModel((_c, i) =>
      i < 2
        ? {
            toolCalls: [
              { name: "list_files", input: {} },
              { name: "rename_file", input: {} },
            ],
          }
        : { text: "ok" },
    );
    await generateText({
      model: second,
      messages: command,
      stopWhen: isStepCount(4),
      ...skills.wrap({ messages: command, tools }),
    });
    expect(fixture.events.filter((e) => e.type === "activated")).toEqual([
      expect.objectContaining({ skill: "batch-rename", by: "user", args: "*.jpg holiday-{n}" }),
    ]);
  });
});

describeWithSharedData("stateless across requests", () => {
  it("rebuilds the active skill from the messages of the previous request", async () => {
    const first = scriptedModel((call, i) =>
      i === 0 ? { toolCalls: [activate(call, "markitdown")] } : { text: "Converted." },
    );
    const request1 = ask(CONVERT);
    const result1 = await generateText({
      model: first,
      messages: request1,
      stopWhen: isStepCount(3),
      ...skills.wrap({ messages: request1, tools: hostTools() }),
    });

    // A new process could serve request 2: a fresh createSkills over the same files.
    const again = await createSkills({ shelf: fixture.shelf });
    const request2: ModelMessage[] = [
      ...request1,
      ...result1.responseMessages,
      ...ask("ok, now the appendix too."),
    ];
    const second = scriptedModel(() => ({ text: "Done." }));
    await generateText({
      model: second,
      messages: request2,
      ...again.wrap({ messages: request2, tools: hostTools() }),
    });

    expect(hostOffered(second.calls[0])).toEqual(MARKITDOWN_TOOLS);
    expect(systemText(second.calls[0])).toContain(MARKITDOWN_BODY);
    expect(
      again
        .session(request2)
        .active()
        .map((s) => s.name),
    ).toEqual(["markitdown"]);
  });
});

describeWithSharedData("composition with the user's own options", () => {
  it("runs the user's prepareStep first and narrows with their activeTools", async () => {
    const seen: number[] = [];
    const model = scriptedModel((call, i) =>
      i === 0 ? { toolCalls: [activate(call, "markitdown")] } : { text: "ok" },
    );
    await generateText({
      model,
      instructions: "base",
      messages: ask(CONVERT),
      stopWhen: isStepCount(3),
      ...skills.wrap({
        messages: ask(CONVERT),
        tools: hostTools(),
        activeTools: ["read_file", "web_search", "bash"],
        prepareStep: ({ stepNumber }) => {
          seen.push(stepNumber);
          return stepNumber === 1
            ? { activeTools: ["read_file"], instructions: "step one rules" }
            : undefined;
        },
      }),
    });
    expect(seen).toEqual([0, 1]);
    expect(hostOffered(model.calls[0])).toEqual(["bash", "read_file", "web_search"]);
    // Their restriction and the skill's, both: read_file is the only tool in both.
    expect(hostOffered(model.calls[1])).toEqual(["read_file"]);
    expect(model.calls[1]?.prompt[0]).toEqual({ role: "system", content: "step one rules" });
    expect(systemText(model.calls[1])).toContain(MARKITDOWN_BODY);
  });
});

describeWithSharedData("a long-lived ToolLoopAgent (prepareCall)", () => {
  it("answers a call to a hidden tool with core's refusal there too", async () => {
    const tools = hostTools();
    const model = scriptedModel((call, i) => {
      if (i === 0) return { toolCalls: [activate(call, "markitdown")] };
      if (i === 1) return { toolCalls: [{ name: "send_email", input: {} }] };
      return { text: "done" };
    });
    const agent = new ToolLoopAgent({ model, tools, prepareCall: skills.prepareCall });
    await agent.generate({ prompt: CONVERT });
    expect(tools.send_email?.execute).not.toHaveBeenCalled();
    expect(fixture.events.filter((e) => e.type === "tool-blocked")).toEqual([
      expect.objectContaining({ tool: "send_email", skill: "markitdown" }),
    ]);
    expect(JSON.stringify(model.calls[2]?.prompt)).toContain("TOOL_NOT_ALLOWED");
  });

  it("wraps every call with that call's messages, streaming or not", async () => {
    const tools = hostTools();
    // One model for the agent's lifetime; each call gets its own script and call log.
    let script: Script = () => ({ text: "" });
    let first = 0;
    const model = scriptedModel((call, i) => script(call, i - first));
    const callsOfThisRun = () => model.calls.slice(first);
    const nextRun = (next: Script) => {
      script = next;
      first = model.calls.length;
    };
    const agent = new ToolLoopAgent({
      model,
      instructions: "You are the wiki assistant.",
      tools,
      prepareCall: skills.prepareCall,
    });

    nextRun((call, i) => (i === 0 ? { toolCalls: [activate(call, "markitdown")] } : { text: "Converted." }));
    const generated = await agent.generate({ prompt: CONVERT });
    expect(generated.text).toBe("Converted.");
    const [, underSkill] = callsOfThisRun();
    expect(hostOffered(underSkill)).toEqual(MARKITDOWN_TOOLS);
    expect(underSkill?.prompt[0]).toEqual({ role: "system", content: "You are the wiki assistant." });
    expect(systemText(underSkill)).toContain(MARKITDOWN_BODY);

    // Another call on the same agent, another conversation: nothing carried over.
    nextRun(() => ({ text: "Hello." }));
    const streamed = await agent.stream({ messages: ask("hi there") });
    expect(await streamed.text).toBe("Hello.");
    expect(hostOffered(callsOfThisRun()[0])).toEqual(HOST_TOOL_NAMES);
    expect(systemText(callsOfThisRun()[0])).not.toContain(MARKITDOWN_BODY);
  });
  it("works with createAgentUIStream: UI messages in, the skill rebuilt from them on the next request", async () => {
    let script: Script = () => ({ text: "" });
    let first = 0;
    const model = scriptedModel((call, i) => script(call, i - first));
    const agent = new ToolLoopAgent({ model, tools: hostTools(), prepareCall: skills.prepareCall });
    const send = async (uiMessages: UIMessage[], next: Script) => {
      script = next;
      first = model.calls.length;
      const stream = await createAgentUIStream({ agent, uiMessages });
      let last: UIMessage | undefined;
      for await (const message of readUIMessageStream({ stream })) last = message;
      return last!;
    };
    const user = (id: string, text: string): UIMessage => ({
      id,
      role: "user",
      parts: [{ type: "text", text }],
    });

    const question = user("u1", CONVERT);
    const answer = await send([question], (call, i) =>
      i === 0 ? { toolCalls: [activate(call, "markitdown")] } : { text: "Converted." },
    );
    expect(
      answer.parts.some((p) => p.type === "tool-skill_markitdown" || p.type === "tool-activate_skill"),
    ).toBe(true);

    await send([question, answer, user("u2", "Yes, and the appendix?")], () => ({ text: "Done." }));
    expect(hostOffered(model.calls[first])).toEqual(MARKITDOWN_TOOLS);
    expect(systemText(model.calls[first])).toContain(MARKITDOWN_BODY);
  });
});

describeWithSharedData("roleTool", () => {
  it("offers builtin roles and user-defined role skills alike", () => {
    const delegate = skills.roleTool({ model: scriptedModel(() => ({ text: "" })), tools: hostTools() });
    const roleNames = fixture.shelf.roles().map((r) => r.name);
    expect(roleNames).toContain("fact-checker");
    expect(roleNames.length).toBeGreaterThan(1);
    for (const name of roleNames) expect(delegate.description).toContain(`- ${name}:`);
  });

  it("runs a builtin role the same way: its read-only whitelist over the host's tools", async () => {
    const tools = hostTools();
    const sub = scriptedModel(() => ({ text: "findings" }));
    const delegate = skills.roleTool({ model: sub, tools });
    const output = await delegate.execute?.(
      { role: "researcher", task: "What changed in v2?" },
      { toolCallId: "c", messages: [], context: undefined },
    );
    expect(output).toMatchObject({ status: "success", data: { role: "researcher", text: "findings" } });
    const offered = offeredTools(sub.calls[0]);
    expect(offered).toContain("read_file");
    for (const writer of ["write_file", "bash", "send_email", "rename_file", "delegate"]) {
      expect(offered).not.toContain(writer);
    }
  });

  it("runs a user-defined role skill as a sub-agent that sees only its whitelisted tools", async () => {
    const tools = hostTools();
    const checker = scriptedModel((_call, i) =>
      i === 0
        ? { toolCalls: [{ name: "web_search", input: { q: "moon landing 1969" } }] }
        : { text: "supported" },
    );
    const parent = scriptedModel((_call, i) =>
      i === 0
        ? {
            toolCalls: [
              {
                name: "delegate",
                input: { role: "fact-checker", task: "Did the moon landing happen in 1969?" },
              },
            ],
          }
        : { text: "It did." },
    );
    const delegate = skills.roleTool({
      model: parent,
      tools,
      resolveModel: (id) => (id === "checker-model" ? checker : undefined),
    });
    const result = await generateText({
      model: parent,
      messages: ask("Check whether the moon landing was in 1969"),
      stopWhen: isStepCount(3),
      ...skills.wrap({ tools: { ...tools, delegate } }),
    });

    expect(checker.calls).toHaveLength(2);
    expect(offeredTools(checker.calls[0])).toEqual(["web_search"]);
    expect(systemText(checker.calls[0])).toContain(FACT_CHECKER_BODY);
    expect(tools.web_search?.execute).toHaveBeenCalledTimes(1);
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
      status: "success",
      data: { role: "fact-checker", text: "supported", tools: ["web_search"] },
    });
  });

  it("answers an unknown role with a structured error", async () => {
    const delegate = skills.roleTool({ model: scriptedModel(() => ({ text: "" })), tools: hostTools() });
    const output = await delegate.execute?.(
      { role: "nobody", task: "x" },
      { toolCallId: "c", messages: [], context: undefined },
    );
    expect(output).toMatchObject({ status: "error", error_type: "UNKNOWN_ROLE" });
  });
});
