import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { decide, type OfflineMemory, type OfflineMessage, type OfflineRequest } from "./policy.js";

interface OfflineCallOptions extends BaseChatModelCallOptions {
  tools?: Array<{ name: string; description: string }>;
}

/**
 * The offline model as a LangChain chat model: `bindTools` records the offered tools in the
 * call options (as provider models do), and `_generate` hands the same request to the same
 * rules as the AI SDK wrapper, so LangChain agents get the same answers.
 */
export class OfflineChatModel extends BaseChatModel<OfflineCallOptions> {
  private calls = 0;

  constructor(private readonly memory: OfflineMemory = { seenTools: new Set() }) {
    super({});
  }

  _llmType(): string {
    return "skillshelf-demo-offline";
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Partial<OfflineCallOptions>) {
    const offered = tools.map((t) => {
      const fn = convertToOpenAITool(t).function;
      return { name: fn.name, description: fn.description ?? "" };
    });
    return this.withConfig({ ...kwargs, tools: offered });
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    _runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const reply = decide(toRequest(messages, options.tools ?? []), this.memory);
    const message =
      "text" in reply
        ? new AIMessage(reply.text)
        : new AIMessage({
            content: "",
            tool_calls: reply.toolCalls.map((c) => ({
              id: `call_${++this.calls}`,
              name: c.name,
              args: c.args,
              type: "tool_call" as const,
            })),
          });
    return { generations: [{ text: message.text, message }] };
  }
}

function toRequest(messages: BaseMessage[], tools: OfflineRequest["tools"]): OfflineRequest {
  const system: string[] = [];
  const out: OfflineMessage[] = [];
  for (const m of messages) {
    const type = m.getType();
    if (type === "system") system.push(m.text);
    else if (type === "human") out.push({ role: "user", text: m.text });
    else if (type === "ai") {
      const calls = (m as AIMessage).tool_calls ?? [];
      out.push({
        role: "assistant",
        text: m.text,
        toolCalls: calls.map((c) => ({ id: c.id ?? "", name: c.name, args: c.args })),
      });
    } else if (type === "tool") {
      const tool = m as BaseMessage & { tool_call_id: string; name?: string };
      // Not every producer names a ToolMessage: the call it answers does.
      const name =
        tool.name ||
        out
          .flatMap((o) => (o.role === "assistant" ? (o.toolCalls ?? []) : []))
          .find((c) => c.id === tool.tool_call_id)?.name ||
        "";
      out.push({ role: "tool", id: tool.tool_call_id, name, output: m.text });
    }
  }
  return { system: system.join("\n\n"), messages: out, tools };
}
