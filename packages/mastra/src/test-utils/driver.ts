/**
 * The conformance driver for Mastra: a real `Agent` with the skills processor and Mastra
 * memory (one thread per conversation), host tools made with `createTool`, the delegation
 * tool from `skills.delegateTools`, and a MockLanguageModelV4 that shows the scripted model
 * exactly what Mastra sent it.
 */
import { Agent } from "@mastra/core/agent";
import type { MastraModelConfig } from "@mastra/core/llm";
import { Mastra } from "@mastra/core/mastra";
import { MockMemory } from "@mastra/core/memory";
import { InMemoryStore } from "@mastra/core/storage";
import { createTool } from "@mastra/core/tools";
import type {
  ConformanceDriver,
  HostTool,
  ModelReply,
  ModelView,
  ScriptedModel,
  SeenMessage,
} from "@skillshelf/core/testing";
import { MAX_STEPS, tamperedResult } from "@skillshelf/core/testing";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { createSkills } from "../skills.js";

type CallOptions = MockLanguageModelV4["doGenerateCalls"][number];
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A tool result as the model reads it: JSON values parsed, text parsed when it is JSON. */
function readOutput(output: unknown): unknown {
  const { type, value } = (output ?? {}) as { type?: string; value?: unknown };
  if (type === "json" || type === "error-json") return value;
  if ((type === "text" || type === "error-text") && typeof value === "string") {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value ?? output;
}

/** What the model saw in one call, from the options Mastra passed to the provider. */
export function viewOf(options: CallOptions): ModelView {
  const system: string[] = [];
  const messages: SeenMessage[] = [];
  for (const message of options.prompt) {
    if (message.role === "system") system.push(message.content);
    else if (message.role === "user") {
      const text = message.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
      messages.push({ role: "user", text });
    } else if (message.role === "assistant") {
      const text = message.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
      const calls = message.content.flatMap((p) =>
        p.type === "tool-call" ? [{ name: p.toolName, input: p.input ?? {} }] : [],
      );
      messages.push({ role: "assistant", ...(text ? { text } : {}), ...(calls.length > 0 ? { calls } : {}) });
    } else if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type === "tool-result") {
          messages.push({ role: "tool", name: part.toolName, result: readOutput(part.output) });
        }
      }
    }
  }
  const tools = (options.tools ?? []).flatMap((tool) =>
    tool.type === "function"
      ? [
          {
            name: tool.name,
            description: tool.description ?? "",
            inputSchema: tool.inputSchema as Record<string, unknown>,
          },
        ]
      : [],
  );
  return { system: system.join("\n\n"), tools, messages };
}

let ids = 0;

function contentOf(reply: ModelReply) {
  if ("text" in reply) return [{ type: "text" as const, text: reply.text }];
  return reply.calls.map((call) => ({
    type: "tool-call" as const,
    toolCallId: call.id ?? `call_${++ids}`,
    toolName: call.name,
    input: JSON.stringify(call.input ?? {}),
  }));
}

function finishOf(reply: ModelReply) {
  return { unified: "text" in reply ? ("stop" as const) : ("tool-calls" as const), raw: undefined };
}

/** A Mastra model whose every answer is the scripted model's answer to what it was sent. */
export function mastraModel(scripted: ScriptedModel): MastraModelConfig {
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      const reply = scripted(viewOf(options));
      return { content: contentOf(reply), finishReason: finishOf(reply), usage, warnings: [] };
    },
    doStream: async (options) => {
      const reply = scripted(viewOf(options));
      const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const part of contentOf(reply)) {
        if (part.type === "text") {
          parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: part.text });
          parts.push({ type: "text-end", id: "t" });
        } else parts.push(part);
      }
      parts.push({ type: "finish", finishReason: finishOf(reply), usage });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  // Mastra vendors its own copy of the provider types; at runtime a V4 model is what it takes.
  return model as unknown as MastraModelConfig;
}

/**
 * A scenario's JSON Schema as a zod schema. zod 4 converts it itself; the floor lane runs
 * zod 3 (Mastra's range allows it), which cannot, so the flat object schemas scenarios use
 * (string, number and boolean fields) are built by hand there.
 */
function zodOf(schema: Record<string, unknown>): z.ZodType {
  const convert = (z as unknown as { fromJSONSchema?: (s: unknown) => z.ZodType }).fromJSONSchema;
  if (typeof convert === "function") return convert(schema);
  const properties = (schema.properties ?? {}) as Record<string, { type?: string }>;
  const required = new Set((schema.required ?? []) as string[]);
  const fields: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(properties)) {
    const type = field.type === "number" ? z.number() : field.type === "boolean" ? z.boolean() : z.string();
    if (field.type !== undefined && !["string", "number", "boolean"].includes(field.type))
      throw new Error(`zodOf: field type ${field.type} is not supported on zod 3`);
    fields[name] = required.has(name) ? type : type.optional();
  }
  const object = z.object(fields);
  return schema.additionalProperties === false ? object.strict() : object;
}

function mastraTool(tool: HostTool) {
  return createTool({
    id: tool.name,
    description: tool.description,
    // A strict tool is a host's zod tool: Mastra checks its input before it runs.
    // biome-ignore lint/suspicious/noExplicitAny: the scenario's tools carry plain JSON Schema, which Mastra accepts.
    inputSchema: (tool.strict ? zodOf(tool.inputSchema) : tool.inputSchema) as any,
    // A client tool has no `execute`: Mastra hands its calls to the caller.
    ...(!tool.client && {
      execute: async (input: unknown) => tool.run((input ?? {}) as Record<string, unknown>),
    }),
    // Mastra suspends the run before each call, for the caller to approve.
    ...(tool.approval && { requireApproval: true }),
  });
}

type Suspended = { finishReason?: string; runId?: string; suspendPayload?: { toolCallId?: string } };

type Chunk = { toolCallId?: string; toolName?: string; args?: unknown; payload?: Chunk };
const flat = (c: Chunk): Chunk => c.payload ?? c;

/** The last step's calls that have no result: the ones Mastra handed to the caller. */
function handedOver(calls: readonly Chunk[] = [], results: readonly Chunk[] = []): Chunk[] {
  const answered = new Set(results.map((r) => flat(r).toolCallId));
  return calls.map(flat).filter((c) => !answered.has(c.toolCallId));
}

/** The driver, running each user turn through `agent.generate()` or `agent.stream()`. */
export const mastraDriver = (mode: "generate" | "stream" = "generate"): ConformanceDriver => ({
  name: `mastra (${mode})`,
  clientTools: true,
  tamper: true,
  approvals: true,
  conversation({ shelf, tools, model, system, roleModel, models = {}, files, approveEveryCall }) {
    const lead = mastraModel(model);
    // Where Mastra keeps a suspended run (a new process resumes it from there).
    const storage = new InMemoryStore();
    const asks = approveEveryCall === true || tools.some((tool) => tool.approval);
    const role = roleModel && mastraModel(roleModel);
    const own = Object.fromEntries(tools.map((tool) => [tool.name, mastraTool(tool)]));
    // A scenario's `delegate` host tool stands for the delegation tool, as in a real app.
    const { delegate: _standIn, ...others } = own;
    const memory = new MockMemory();
    /** The skills and the agent an app builds (again, in a new process, on the same memory). */
    const build = () => {
      const skills = createSkills({
        shelf,
        onDiagnostic: () => undefined,
        resolveModel: (id) => (models[id] ? mastraModel(models[id]) : undefined),
        ...(files && { files: () => files }),
      });
      const agentTools =
        role && "delegate" in own
          ? {
              ...others,
              ...skills.delegateTools({ model: role, tools: others, onDiagnostic: () => undefined }),
            }
          : own;
      const agent = new Agent({
        id: "conformance",
        name: "conformance",
        instructions: system,
        model: lead,
        tools: agentTools,
        inputProcessors: [skills.processor],
        memory,
      });
      return asks
        ? new Mastra({ agents: { conformance: agent }, storage, logger: false }).getAgent("conformance")
        : agent;
    };
    let agent = build();
    // Where an approved call goes on: a new process. Except for a host that asks about
    // skillshelf's own tools too: Mastra resumes a call with the tools it registers before the
    // run's state is back, so a new process cannot answer an approved activation (README,
    // "Tool approval"); it is approved in the process that asked.
    const resumer = () => (approveEveryCall ? agent : build());
    const thread = { thread: `thread-${++ids}`, resource: "conformance" };
    return {
      rebuild() {
        agent = build();
      },
      // The thread's messages are what every run replays: the edit rewrites the tool results
      // stored in memory (a store a client can write, or the messages a route is posted).
      async tamper(edit) {
        const { messages } = await memory.recall({
          threadId: thread.thread,
          resourceId: thread.resource,
          perPage: false, // every message of the thread, not a recall window
        });
        const edited = messages.map((message) => ({
          ...message,
          content: {
            ...message.content,
            parts: message.content.parts?.map((part) =>
              part.type === "tool-invocation" && part.toolInvocation.state === "result"
                ? {
                    ...part,
                    toolInvocation: {
                      ...part.toolInvocation,
                      result: tamperedResult(edit, part.toolInvocation.result),
                    },
                  }
                : part,
            ),
          },
        }));
        await memory.saveMessages({ messages: edited });
      },
      async send(message) {
        // A host that asks about every call, skillshelf's own tools included.
        const options = {
          memory: thread,
          maxSteps: MAX_STEPS,
          ...(approveEveryCall && { requireToolApproval: true }),
        };
        let pending: Chunk[];
        if (mode === "generate") {
          let result = await agent.generate(message, options);
          // Each call Mastra asks about is approved from a new process, where the run goes on.
          for (let i = 0; i < MAX_STEPS && result.finishReason === "suspended"; i++) {
            const { runId, suspendPayload } = result as Suspended;
            agent = resumer();
            result = await agent.approveToolCallGenerate({
              runId: runId!,
              ...(suspendPayload?.toolCallId && { toolCallId: suspendPayload.toolCallId }),
            });
          }
          pending =
            result.finishReason === "tool-calls"
              ? handedOver(result.toolCalls as Chunk[], result.toolResults as Chunk[])
              : [];
        } else {
          let stream = await agent.stream(message, options);
          await stream.text;
          for (let i = 0; i < MAX_STEPS && (await stream.finishReason) === "suspended"; i++) {
            const suspendPayload = (await stream.suspendPayload) as Suspended["suspendPayload"];
            agent = resumer();
            stream = await agent.approveToolCall({
              runId: stream.runId,
              ...(suspendPayload?.toolCallId && { toolCallId: suspendPayload.toolCallId }),
            });
            await stream.text;
          }
          pending =
            (await stream.finishReason) === "tool-calls"
              ? handedOver((await stream.toolCalls) as Chunk[], (await stream.toolResults) as Chunk[])
              : [];
        }
        // The caller runs what Mastra handed over (the turn ends there).
        for (const call of pending) {
          const host = tools.find((t) => t.client && t.name === call.toolName);
          await host?.run((call.args ?? {}) as Record<string, unknown>);
        }
      },
    };
  },
});
