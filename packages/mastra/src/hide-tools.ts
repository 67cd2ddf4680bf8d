/**
 * Tools a skill hides must still reach the guard when a model calls them anyway. Mastra
 * refuses a call to a tool outside the step's `activeTools` itself ("Tool "x" not found"),
 * before any `execute` — our guard included — runs, so core never hears of it: no
 * `tool-blocked` event, and the model reads a bare "not found" instead of core's
 * TOOL_NOT_ALLOWED result naming the tools it may use. A model makes exactly this call
 * with a tool it saw earlier in the conversation.
 *
 * So the processor keeps the hidden host tools active (Mastra runs their guarded
 * `execute`, which refuses) and takes them out of what the model is sent, with this
 * wrapper on the step's model: the provider never sees them offered.
 */
import type { ProcessInputStepArgs } from "@mastra/core/processors";

type StepModel = ProcessInputStepArgs["model"];

type CallOptions = { tools?: Array<{ name?: string }> } & Record<string, unknown>;

export function withoutTools(model: StepModel, hidden: readonly string[]): StepModel {
  const names = new Set(hidden);
  const strip = (options: CallOptions): CallOptions =>
    options?.tools
      ? { ...options, tools: options.tools.filter((t) => !(t.name && names.has(t.name))) }
      : options;
  // A Proxy, not a copy: Mastra recognises its own model classes (instanceof) and would
  // wrap a plain copy again; methods run on the real model, whose private fields they read.
  return new Proxy(model, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "doGenerate" || property === "doStream") {
        return (options: CallOptions) => (value as (o: CallOptions) => unknown).call(target, strip(options));
      }
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
