import { Agent } from "@mastra/core/agent";
import type { MastraModelConfig } from "@mastra/core/llm";
import { MockMemory } from "@mastra/core/memory";
import { createTool } from "@mastra/core/tools";
import { createSkills } from "@skillshelf/mastra";
import { aiSdkModel } from "./ai-sdk.js";
import {
  type FrameworkRunner,
  LEAD_STEPS,
  type RunnerContext,
  runRecorded,
  SUB_AGENT_STEPS,
} from "./runner.js";

export function mastraTools(ctx: RunnerContext) {
  return Object.fromEntries(
    ctx.tools.map((t) => [
      t.name,
      createTool({
        id: t.name,
        description: t.description,
        inputSchema: t.schema,
        execute: (input: unknown) => runRecorded(ctx, t, input),
      }),
    ]),
  );
}

/**
 * The Mastra team: an `Agent` with skillshelf's input processor, a `delegate` tool whose
 * sub-agents are role skills, and a memory thread per conversation (the processor rebuilds
 * the skill state from it). Mastra takes AI SDK models, so the model is the AI SDK one.
 */
export async function createMastraRunner(ctx: RunnerContext): Promise<FrameworkRunner> {
  // Mastra vendors its own copy of the AI SDK provider types; at runtime a V4 model is what it takes.
  const model = aiSdkModel(ctx.model) as unknown as MastraModelConfig;
  const skills = createSkills({ shelf: ctx.shelf, onDiagnostic: ctx.onDiagnostic });
  const tools = mastraTools(ctx);
  // Mastra's in-memory memory (a real app would use @mastra/memory with a store).
  const memory = new MockMemory();

  return {
    framework: "mastra",
    async send(thread, text) {
      // Assembled per message from the shelf's current roles, so a role file added to the
      // workspace joins the team on the next message.
      const roles = skills.delegateTool({
        model,
        tools,
        maxSteps: SUB_AGENT_STEPS,
        onDiagnostic: ctx.onDiagnostic,
      });
      const delegate = createTool({
        id: roles.id,
        description: roles.description,
        inputSchema: roles.inputSchema,
        execute: (input, context) =>
          ctx.agents.within((input as { role?: unknown }).role, async () =>
            roles.execute!(input as never, context as never),
          ),
      });
      const lead = new Agent({
        id: "lead",
        name: "lead",
        instructions: ctx.instructions,
        model,
        tools: { ...tools, delegate },
        inputProcessors: [skills.processor],
        memory,
      });
      const result = await lead.generate(text, {
        memory: { thread, resource: "demo-user" },
        maxSteps: LEAD_STEPS,
      });
      return result.text;
    },
    generate: skills.generate(model),
  };
}
