import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createGenerate, createSkills } from "@skillshelf/ai-sdk";
import {
  generateText,
  isStepCount,
  type LanguageModel,
  type ModelMessage,
  type Tool,
  type ToolSet,
  tool,
} from "ai";
import { createOfflineLanguageModel } from "../offline-model/ai-sdk-model.js";
import {
  type FrameworkRunner,
  LEAD_STEPS,
  type ModelChoice,
  type RunnerContext,
  runRecorded,
  SUB_AGENT_STEPS,
} from "./runner.js";

/** An AI SDK model for the choice: the offline rules, or any OpenAI-compatible endpoint. */
export function aiSdkModel(choice: ModelChoice): LanguageModel {
  if (choice.kind === "offline") return createOfflineLanguageModel();
  const provider = createOpenAICompatible({
    name: "openai",
    apiKey: choice.apiKey,
    baseURL: choice.baseURL ?? "https://api.openai.com/v1",
  });
  return provider(choice.model);
}

export function aiSdkTools(ctx: RunnerContext): ToolSet {
  return Object.fromEntries(
    ctx.tools.map((t) => [
      t.name,
      tool({
        description: t.description,
        inputSchema: t.schema,
        execute: (input) => runRecorded(ctx, t, input),
      }),
    ]),
  );
}

/** The Vercel AI SDK team: `generateText` per message, the history kept as a chat client keeps it. */
export async function createAiSdkRunner(ctx: RunnerContext): Promise<FrameworkRunner> {
  const model = aiSdkModel(ctx.model);
  const skills = await createSkills({ shelf: ctx.shelf, onDiagnostic: ctx.onDiagnostic });
  const tools = aiSdkTools(ctx);
  const threads = new Map<string, ModelMessage[]>();

  return {
    framework: "ai-sdk",
    async send(thread, text) {
      // Assembled per message from the shelf's current roles, so a role file added to the
      // workspace joins the team on the next message.
      await ctx.shelf.refresh();
      const roleTool = skills.roleTool({ model, tools, stopWhen: isStepCount(SUB_AGENT_STEPS) });
      // The same tool, run inside the role's scope so its tool calls are shown as the role's.
      const delegate = {
        ...roleTool,
        execute: (input, options) =>
          ctx.agents.within(input.role, async () => roleTool.execute!(input, options)),
      } as Tool<{ role: string; task: string }>;
      const messages = [
        ...(threads.get(thread) ?? []),
        { role: "user", content: text } satisfies ModelMessage,
      ];
      const result = await generateText({
        model,
        instructions: ctx.instructions,
        messages,
        stopWhen: isStepCount(LEAD_STEPS),
        ...skills.wrap({ messages, tools: { ...tools, delegate } }),
      });
      threads.set(thread, [...messages, ...result.responseMessages]);
      return result.text;
    },
    generate: createGenerate(model),
  };
}
