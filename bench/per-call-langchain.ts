/**
 * LangChain for the per-call benchmark: `createAgent` with LangChain's own mock model
 * (`fakeModel`, answers queued per run) and the host tools; with a shelf, the same agent with
 * `skillsMiddleware({ shelf })` and nothing else set (its defaults).
 */
import { skillsMiddleware } from "@skillshelf/langchain";
import { type AgentMiddleware, AIMessage, createAgent, fakeModel, HumanMessage, tool } from "langchain";
import { type CreateHarness, type Harness, HOST_TOOLS, scriptQueue } from "./per-call-script.ts";

export const createHarness: CreateHarness = async (shelf) =>
  harnessWith(shelf ? [skillsMiddleware({ shelf })] : []);

/** The same agent with any middleware (per-call-hooks.bench.ts times the framework's hooks alone). */
export function harnessWith(middleware: readonly AgentMiddleware[]): Harness {
  const model = fakeModel();
  const queue = scriptQueue();
  const tools = HOST_TOOLS.map((host) =>
    tool(async (input: Record<string, unknown>) => host.run(input), {
      name: host.name,
      description: host.description,
      schema: host.schema,
    }),
  );
  const agent = createAgent({
    model,
    tools,
    systemPrompt: "You are a helpful assistant.",
    middleware: [...middleware],
  });
  return {
    async turn(conversation, script) {
      queue.load(script);
      for (let i = 0; i < script.length; i++) {
        model.respond(() => {
          const step = queue.next();
          if ("text" in step) return new AIMessage(step.text);
          return new AIMessage({
            content: "",
            tool_calls: step.calls.map((call, n) => ({
              id: `call_${i}_${n}`,
              name: call.name,
              args: call.input,
              type: "tool_call" as const,
            })),
          });
        });
      }
      await agent.invoke({
        messages: conversation.map((m) =>
          m.role === "user" ? new HumanMessage(m.text) : new AIMessage(m.text),
        ),
      });
      // The mock keeps every answer queued and every call it received, by call index; a long
      // benchmark must not grow them.
      const internals = model as unknown as {
        queue: unknown[];
        _state: { callIndex: number; calls: unknown[] };
      };
      internals.queue.length = 0;
      internals._state.callIndex = 0;
      internals._state.calls.length = 0;
    },
  };
}
