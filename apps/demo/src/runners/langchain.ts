import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { delegateTool, generateFrom, skillsMiddleware } from "@skillshelf/langchain";
import { createAgent } from "langchain";
import { OfflineChatModel } from "../offline-model/langchain-model.js";
import {
  type FrameworkRunner,
  LEAD_STEPS,
  type ModelChoice,
  type RunnerContext,
  runRecorded,
} from "./runner.js";

/** A LangChain chat model for the choice: the offline rules, or ChatOpenAI on any OpenAI-compatible endpoint. */
export function langchainModel(choice: ModelChoice): BaseChatModel {
  if (choice.kind === "offline") return new OfflineChatModel();
  return new ChatOpenAI({
    model: choice.model,
    apiKey: choice.apiKey,
    ...(choice.baseURL && { configuration: { baseURL: choice.baseURL } }),
  });
}

export function langchainTools(ctx: RunnerContext): StructuredToolInterface[] {
  return ctx.tools.map((t) =>
    tool((input: unknown) => runRecorded(ctx, t, input), {
      name: t.name,
      description: t.description,
      schema: t.schema,
    }),
  );
}

/**
 * The LangChain team: `createAgent` with skillshelf's middleware, a `delegate` tool whose
 * sub-agents are role skills, and a checkpointer, so each thread keeps its messages and its
 * skill state in LangGraph's checkpoint.
 */
export async function createLangchainRunner(ctx: RunnerContext): Promise<FrameworkRunner> {
  const model = langchainModel(ctx.model);
  const tools = langchainTools(ctx);
  const checkpointer = new MemorySaver();
  const middleware = skillsMiddleware({ shelf: ctx.shelf, onDiagnostic: ctx.onDiagnostic });

  return {
    framework: "langchain",
    async send(thread, text) {
      // Assembled per message from the shelf's current roles, so a role file added to the
      // workspace joins the team on the next message.
      const roles = delegateTool({ shelf: ctx.shelf, tools, model, onDiagnostic: ctx.onDiagnostic });
      const delegate = tool(
        // Only the signal goes through: the outer call's toolCall must not turn the inner result into a ToolMessage.
        (input: Record<string, unknown>, config) =>
          ctx.agents.within(input.role, async () =>
            String(await roles.invoke(input, { signal: config?.signal })),
          ),
        { name: roles.name, description: roles.description, schema: roles.schema as Record<string, unknown> },
      );
      const team: StructuredToolInterface[] = [...tools, delegate as StructuredToolInterface];
      const agent = createAgent({
        model,
        tools: team,
        systemPrompt: ctx.instructions,
        middleware: [middleware],
        checkpointer,
      });
      const state = await agent.invoke(
        { messages: [new HumanMessage(text)] },
        { configurable: { thread_id: thread }, recursionLimit: LEAD_STEPS * 2 + 1 },
      );
      return state.messages.findLast((m) => AIMessage.isInstance(m))?.text ?? "";
    },
    generate: generateFrom(model),
  };
}
