/**
 * The conformance driver for the AI SDK: the real `generateText` loop with `skills.wrap()`,
 * a `MockLanguageModelV4` that shows the scripted model what the SDK actually sent it (the
 * system messages, the tools as offered, the prompt's messages), AI SDK tools made from the
 * scenario's host tools, and the conversation kept the way a route keeps it: one messages
 * array, extended with each request's response messages.
 */
import type {
  ConformanceDriver,
  DriverOptions,
  HostTool,
  ModelReply,
  ModelView,
  ScriptedModel,
  SeenMessage,
  SeenTool,
} from "@skillshelf/core/testing";
import { MAX_STEPS, tamperedResult } from "@skillshelf/core/testing";
import { generateText, isStepCount, jsonSchema, type ModelMessage, streamText, type ToolSet, tool } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { createSkills } from "../skills.js";

type CallOptions = Parameters<MockLanguageModelV4["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
type Prompt = CallOptions["prompt"];

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

type StreamResult = Awaited<ReturnType<MockLanguageModelV4["doStream"]>>;
type StreamPart = StreamResult["stream"] extends ReadableStream<infer P> ? P : never;

/** A mock model that answers with what `model` says after seeing the SDK's request (either path). */
function mockModel(model: ScriptedModel): MockLanguageModelV4 {
  let ids = 0;
  const answer = (options: CallOptions): GenerateResult => {
    const reply: ModelReply = model(viewOf(options));
    if ("text" in reply) {
      return {
        content: [{ type: "text", text: reply.text }],
        finishReason: { unified: "stop", raw: undefined },
        usage,
        warnings: [],
      };
    }
    return {
      content: reply.calls.map((call) => ({
        type: "tool-call" as const,
        toolCallId: call.id ?? `call_${++ids}`,
        toolName: call.name,
        input: JSON.stringify(call.input ?? {}),
      })),
      finishReason: { unified: "tool-calls", raw: undefined },
      usage,
      warnings: [],
    };
  };
  return new MockLanguageModelV4({
    doGenerate: async (options) => answer(options),
    doStream: async (options): Promise<StreamResult> => {
      const { content, finishReason } = answer(options);
      const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const part of content) {
        if (part.type === "text") {
          parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: part.text });
          parts.push({ type: "text-end", id: "t" });
        } else parts.push(part as StreamPart);
      }
      parts.push({ type: "finish", finishReason, usage });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}

function viewOf(options: CallOptions): ModelView {
  const tools: SeenTool[] = (options.tools ?? []).flatMap((t) =>
    t.type === "function"
      ? [
          {
            name: t.name,
            description: t.description ?? "",
            inputSchema: t.inputSchema as Record<string, unknown>,
          },
        ]
      : [],
  );
  return {
    system: options.prompt.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n\n"),
    tools,
    messages: seenMessages(options.prompt),
  };
}

function seenMessages(prompt: Prompt): SeenMessage[] {
  const seen: SeenMessage[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case "user":
        seen.push({
          role: "user",
          text: message.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n"),
        });
        break;
      case "assistant": {
        const text = message.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
        const calls = message.content.flatMap((p) =>
          p.type === "tool-call" ? [{ name: p.toolName, input: p.input }] : [],
        );
        seen.push({ role: "assistant", ...(text !== "" && { text }), ...(calls.length > 0 && { calls }) });
        break;
      }
      case "tool":
        for (const part of message.content) {
          if (part.type === "tool-result")
            seen.push({ role: "tool", name: part.toolName, result: readOutput(part.output) });
        }
        break;
    }
  }
  return seen;
}

/** A tool result as the model reads it: JSON values as values, text parsed when it is JSON. */
function readOutput(output: { type: string; value?: unknown; reason?: string }): unknown {
  if (output.type === "json" || output.type === "error-json") return output.value;
  if (output.type === "text" || output.type === "error-text") {
    try {
      return JSON.parse(String(output.value));
    } catch {
      return output.value;
    }
  }
  if (output.type === "execution-denied") return output.reason ?? "execution denied";
  return output.value;
}

function aiTool(host: HostTool) {
  // A strict tool is a host's zod tool: the SDK checks its input before it runs.
  const inputSchema = host.strict
    ? (z.fromJSONSchema(host.inputSchema) as unknown as z.ZodType<Record<string, unknown>>)
    : jsonSchema<Record<string, unknown>>(host.inputSchema);
  // A client tool has no `execute`: the SDK hands its calls to the caller.
  if (host.client) return tool({ description: host.description, inputSchema });
  return tool({
    description: host.description,
    inputSchema,
    execute: (input) => host.run(input),
    // The SDK asks the caller first: the request ends with a `tool-approval-request`.
    ...(host.approval && { needsApproval: true }),
  });
}

/** The approvals a run's messages ask for and no message has answered. */
function approvalsAsked(messages: readonly ModelMessage[]): string[] {
  const asked: string[] = [];
  for (const message of messages) {
    if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const part of message.content)
      if (part.type === "tool-approval-request") asked.push(part.approvalId);
  }
  return asked;
}

/** The calls of a run's messages that have no result: the ones the SDK handed to the caller. */
function handedOver(messages: readonly ModelMessage[]): Array<{ toolName: string; input: unknown }> {
  const answered = new Set<string>();
  const calls: Array<{ toolCallId: string; toolName: string; input: unknown }> = [];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type === "tool-call") calls.push(part);
      else if (part.type === "tool-result") answered.add(part.toolCallId);
    }
  }
  return calls.filter((c) => !answered.has(c.toolCallId));
}

/** The driver, running each user message through `generateText` or `streamText`. */
export const aiSdkDriver = (mode: "generate" | "stream" = "generate"): ConformanceDriver => ({
  name: `ai-sdk (${mode})`,
  clientTools: true,
  tamper: true,
  approvals: true,
  async conversation({
    shelf,
    tools,
    model,
    system,
    roleModel,
    models = {},
    files,
    approveEveryCall,
  }: DriverOptions) {
    const lead = mockModel(model);
    const role = roleModel && mockModel(roleModel);
    // The host's "delegate" is the delegation tool (what a skill's `Task` maps to).
    const own: ToolSet = Object.fromEntries(
      tools.filter((t) => t.name !== "delegate").map((t) => [t.name, aiTool(t)]),
    );
    /** The skills object and the tool set a route builds (again, in a new process). */
    const build = async () => {
      const skills = await createSkills({
        shelf,
        onDiagnostic: () => {},
        resolveModel: (id) => (models[id] ? mockModel(models[id]) : undefined),
        ...(files && { files: () => files }),
      });
      const all: ToolSet =
        role && tools.some((t) => t.name === "delegate")
          ? { ...own, ...skills.roleTools({ model: role, tools: own }) }
          : own;
      return { skills, all };
    };
    let route = await build();
    const messages: ModelMessage[] = [];
    return {
      async rebuild() {
        route = await build();
      },
      // The route keeps nothing but the messages its client posts back: the client edits
      // the tool results in them (a JSON output's value, a text output's JSON text).
      tamper(edit) {
        for (const message of messages) {
          if (message.role !== "tool") continue;
          message.content = message.content.map((part) =>
            part.type === "tool-result" && (part.output.type === "json" || part.output.type === "text")
              ? {
                  ...part,
                  output: {
                    ...part.output,
                    value: tamperedResult(edit, part.output.value),
                  } as typeof part.output,
                }
              : part,
          );
        }
      },
      async send(text: string) {
        messages.push({ role: "user", content: text });
        const run = async () => {
          const options = {
            model: lead,
            instructions: system,
            messages,
            stopWhen: isStepCount(MAX_STEPS),
            ...route.skills.wrap({ tools: route.all }),
            // A host that asks the user about every call, skillshelf's own tools included.
            ...(approveEveryCall && { toolApproval: () => "user-approval" as const }),
          };
          if (mode === "generate") return (await generateText(options)).responseMessages;
          const result = streamText(options);
          await result.consumeStream();
          return result.responseMessages;
        };
        let response = await run();
        messages.push(...response);
        // The client approves what the SDK asked about, in the next request: a new process.
        for (let i = 0; i < MAX_STEPS; i++) {
          const asked = approvalsAsked(response);
          if (asked.length === 0) break;
          messages.push({
            role: "tool",
            content: asked.map((approvalId) => ({
              type: "tool-approval-response",
              approvalId,
              approved: true,
            })),
          });
          route = await build();
          response = await run();
          messages.push(...response);
        }
        // The caller runs what the SDK handed over (the turn ends there).
        for (const call of handedOver(response)) {
          const host = tools.find((t) => t.client && t.name === call.toolName);
          await host?.run((call.input ?? {}) as Record<string, unknown>);
        }
      },
    };
  },
});
