/**
 * The offline rules behind a real OpenAI-compatible endpoint: a scripted chat-completions
 * server (from @skillshelf/test-utils) whose answers come from the same `decide()` the
 * offline model uses. The demo then runs its `OPENAI_API_KEY` path — @ai-sdk/openai-compatible,
 * @langchain/openai's ChatOpenAI, Mastra on the AI SDK provider — over real HTTP, with no network.
 */
import { type ChatMessage, type RecordedRequest, startScriptedOpenAIServer } from "@skillshelf/test-utils";
import { decide, type OfflineMessage, type OfflineRequest } from "../offline-model/policy.js";

export async function startOfflineRulesServer() {
  const memory = { seenTools: new Set<string>() };
  return startScriptedOpenAIServer({
    script: (request: RecordedRequest) => {
      const answer = decide(toOfflineRequest(request), memory);
      return "text" in answer
        ? { content: answer.text }
        : {
            toolCalls: answer.toolCalls.map((c, i) => ({
              name: c.name,
              arguments: c.args,
              id: `call_${request.turn}_${i}`,
            })),
          };
    },
  });
}

function text(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((p) => p.text ?? "").join("");
}

function toOfflineRequest(request: RecordedRequest): OfflineRequest {
  const messages: OfflineMessage[] = [];
  const names = new Map<string, string>();
  for (const m of request.body.messages) {
    if (m.role === "user") messages.push({ role: "user", text: text(m.content) });
    else if (m.role === "assistant") {
      const toolCalls = (m.tool_calls ?? []).map((c) => {
        names.set(c.id, c.function.name);
        return {
          id: c.id,
          name: c.function.name,
          args: JSON.parse(c.function.arguments || "{}") as Record<string, unknown>,
        };
      });
      messages.push({ role: "assistant", text: text(m.content), toolCalls });
    } else if (m.role === "tool") {
      const id = m.tool_call_id ?? "";
      messages.push({ role: "tool", id, name: m.name ?? names.get(id) ?? "", output: text(m.content) });
    }
  }
  return {
    system: request.systemTexts.join("\n\n"),
    messages,
    tools: (request.body.tools ?? []).map((t) => ({
      name: t.function.name,
      description: t.function.description ?? "",
    })),
  };
}
