/**
 * The `generate` bridge core's improvement loop needs: one system + prompt in, text out,
 * through a Mastra agent or any model Mastra accepts.
 */
import { Agent } from "@mastra/core/agent";
import type { MastraModelConfig } from "@mastra/core/llm";
import type { Generate } from "@skillshelf/core";

/**
 * From an existing Agent, the call's `system` replaces the agent's instructions for that
 * call. From a model (an AI SDK model object or a Mastra router id such as
 * "openai/gpt-5-mini"), a bare single-step agent is used: no tools, no memory.
 */
export function mastraGenerate(source: Agent | MastraModelConfig): Generate {
  const agent =
    source instanceof Agent
      ? source
      : new Agent({
          id: "skillshelf-generate",
          name: "skillshelf-generate",
          instructions: "",
          model: source,
        });
  return async ({ system, prompt, signal }) => {
    signal?.throwIfAborted();
    const result = await agent.generate(prompt, {
      instructions: system,
      maxSteps: 1,
      ...(signal ? { abortSignal: signal } : {}),
    });
    // Mastra ends an aborted run with empty text rather than an error; an empty "answer"
    // must not reach the improvement loop as if the model had said nothing.
    signal?.throwIfAborted();
    return result.text;
  };
}
