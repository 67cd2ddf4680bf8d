/**
 * The conformance driver for LangChain: core's scenarios run on a real `createAgent` with
 * skillsMiddleware, a MemorySaver thread, LangChain tools built from the scenario's host
 * tools, and a chat model that shows the scripted model exactly what LangChain sends it
 * (the bound tools in OpenAI's function format, the messages as the model reads them).
 */

import type { BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { Command, MemorySaver } from "@langchain/langgraph";
import { skillToolName } from "@skillshelf/core/adapter";
import type {
  ConformanceDriver,
  ConversationEdit,
  HostTool,
  ModelView,
  ScriptedModel,
  SeenMessage,
  SeenTool,
} from "@skillshelf/core/testing";
import { MAX_STEPS, tamperedResult, tamperedState } from "@skillshelf/core/testing";
import { createAgent, humanInTheLoopMiddleware } from "langchain";
import { z } from "zod";
import { skillsMiddleware } from "../middleware.js";
import { delegateTool } from "../roles.js";
import { STATE_KEY } from "../state.js";

/** The host tool the scenarios name for delegation: in LangChain it is `delegateTool`. */
const DELEGATE = "delegate";

interface ScriptedCallOptions extends BaseChatModelCallOptions {
  tools?: SeenTool[];
}

type OpenAITool = { function: { name: string; description?: string; parameters?: Record<string, unknown> } };

/** A chat model whose every answer is the scripted model's reply to what it was sent. */
class ScriptedChatModel extends BaseChatModel<ScriptedCallOptions> {
  private calls = 0;

  constructor(private readonly script: ScriptedModel) {
    super({});
  }

  _llmType(): string {
    return "skillshelf-scripted";
  }

  override bindTools(tools: Parameters<NonNullable<BaseChatModel["bindTools"]>>[0]) {
    const seen = tools.map((t) => {
      const { function: fn } = convertToOpenAITool(
        t as Parameters<typeof convertToOpenAITool>[0],
      ) as OpenAITool;
      return { name: fn.name, description: fn.description ?? "", inputSchema: fn.parameters ?? {} };
    });
    return this.withConfig({ tools: seen } as Partial<ScriptedCallOptions>);
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const reply = this.script(viewOf(messages, options.tools ?? []));
    const message =
      "text" in reply
        ? new AIMessage(reply.text)
        : new AIMessage({
            content: "",
            tool_calls: reply.calls.map((c, i) => ({
              id: c.id ?? `call_${this.calls}_${i}`,
              name: c.name,
              args: c.input ?? {},
              type: "tool_call" as const,
            })),
          });
    this.calls++;
    return { generations: [{ text: message.text, message }] };
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function viewOf(messages: readonly BaseMessage[], tools: SeenTool[]): ModelView {
  const system: string[] = [];
  const seen: SeenMessage[] = [];
  for (const message of messages) {
    if (SystemMessage.isInstance(message)) system.push(message.text);
    else if (HumanMessage.isInstance(message)) seen.push({ role: "user", text: message.text });
    else if (AIMessage.isInstance(message)) {
      const calls = (message.tool_calls ?? []).map((c) => ({ name: c.name, input: c.args }));
      seen.push(calls.length > 0 ? { role: "assistant", calls } : { role: "assistant", text: message.text });
    } else if (ToolMessage.isInstance(message)) {
      seen.push({ role: "tool", name: message.name ?? "", result: parsed(message.text) });
    }
  }
  return { system: system.join("\n\n"), tools, messages: seen };
}

function langchainTool(host: HostTool): StructuredToolInterface {
  return tool(
    async (input: Record<string, unknown>) => {
      const result = await host.run(input);
      return typeof result === "string" ? result : JSON.stringify(result);
    },
    {
      name: host.name,
      description: host.description,
      // A strict tool is a host's zod tool: LangChain checks its input before it runs.
      schema: host.strict ? z.fromJSONSchema(host.inputSchema) : host.inputSchema,
    },
  ) as StructuredToolInterface;
}

let threads = 0;

/** A tool message with its content edited as a client would (the same id: it replaces the stored one). */
function tamperedMessage(edit: ConversationEdit, message: BaseMessage): BaseMessage {
  if (!ToolMessage.isInstance(message) || typeof message.content !== "string") return message;
  const content = tamperedResult(edit, message.content) as string;
  if (content === message.content) return message;
  return new ToolMessage({
    content,
    tool_call_id: message.tool_call_id,
    ...(message.name !== undefined && { name: message.name }),
    ...(message.id !== undefined && { id: message.id }),
    ...(message.status !== undefined && { status: message.status }),
    artifact: message.artifact,
  });
}

/** The calls the run stopped for (humanInTheLoopMiddleware's interrupt), if it stopped. */
function interrupted(result: unknown): unknown[] | undefined {
  const interrupts = (result as { __interrupt__?: Array<{ value?: { actionRequests?: unknown[] } }> })
    .__interrupt__;
  return interrupts?.[0]?.value?.actionRequests;
}

export const langchainDriver: ConformanceDriver = {
  name: "langchain",
  tamper: true,
  approvals: true,
  conversation({ shelf, tools, model, system, roleModel, models = {}, files, approveEveryCall }) {
    const own = tools.filter((t) => !(roleModel && t.name === DELEGATE)).map(langchainTool);
    const lead = new ScriptedChatModel(model);
    const role = roleModel && new ScriptedChatModel(roleModel);
    const delegation =
      role && tools.some((t) => t.name === DELEGATE)
        ? [delegateTool({ shelf, tools: own, model: role, onDiagnostic: () => {} })]
        : [];
    // The tools LangChain's human-in-the-loop middleware stops the run for, before they run:
    // for a host that asks about every call, each host tool and skillshelf's for each skill.
    const askedAbout = approveEveryCall
      ? [...tools.map((t) => t.name), ...shelf.skills().map((s) => skillToolName(s.name)), "activate_skill"]
      : tools.filter((t) => t.approval).map((t) => t.name);
    const interruptOn = Object.fromEntries(askedAbout.map((name) => [name, true]));
    const asks = Object.keys(interruptOn).length > 0;
    /** The agent (again, in a new process) on a checkpointer: its own, or a run's to resume. */
    const agentOn = (checkpointer: MemorySaver) =>
      createAgent({
        model: lead,
        tools: [...own, ...delegation],
        systemPrompt: system,
        middleware: [
          skillsMiddleware({
            shelf,
            onDiagnostic: () => {},
            resolveModel: (id) => (models[id] ? new ScriptedChatModel(models[id]) : undefined),
            ...(files && { files: () => files }),
          }),
          ...(asks ? [humanInTheLoopMiddleware({ interruptOn })] : []),
        ],
        checkpointer,
      });
    /** An agent on a thread of its own: a host that rebuilds one starts it from the messages. */
    const build = () => {
      const checkpointer = new MemorySaver();
      return {
        agent: agentOn(checkpointer),
        checkpointer,
        config: { configurable: { thread_id: `conformance-${++threads}` } },
      };
    };
    let thread = build();
    /** The thread's messages after its last run: what a rebuilt agent starts from. */
    let messages: BaseMessage[] = [];
    /** Messages the next run replays (a rebuilt agent has no state of its own yet). */
    let replay: BaseMessage[] = [];
    return {
      rebuild() {
        replay = messages;
        thread = build();
      },
      // What a host stores is the checkpoint (the messages and skillshelf's state beside them),
      // and what it rebuilds a thread from is the messages: the edit rewrites both.
      async tamper(edit) {
        messages = messages.map((m) => tamperedMessage(edit, m));
        const { values } = await thread.agent.graph.getState(thread.config);
        const stored = values as { messages?: BaseMessage[]; [STATE_KEY]?: unknown };
        if (!stored.messages) return; // nothing checkpointed yet
        await thread.agent.graph.updateState(thread.config, {
          messages: stored.messages.map((m) => tamperedMessage(edit, m)),
          [STATE_KEY]: tamperedState(edit, stored[STATE_KEY]),
        });
      },
      async send(message) {
        let result = await thread.agent.invoke(
          { messages: [...replay, new HumanMessage(message)] },
          thread.config,
        );
        // Each stop is approved from a new process: a new agent on the same checkpointer.
        for (let i = 0; i < MAX_STEPS && asks && interrupted(result); i++) {
          const asked = interrupted(result)!;
          thread = { ...thread, agent: agentOn(thread.checkpointer) };
          result = await thread.agent.invoke(
            new Command({ resume: { decisions: asked.map(() => ({ type: "approve" })) } }),
            thread.config,
          );
        }
        messages = result.messages;
        replay = [];
      },
    };
  },
};
