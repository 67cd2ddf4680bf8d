/**
 * The words a conformance scenario is scripted in: the model's replies (`call`, `calls`,
 * `text`), reading a tool result's error, and a failed expectation. In their own module so
 * every scenario file can import them without importing scenarios.ts, which spreads the
 * other files' lists into its own (a cycle evaluated before the helpers exist).
 */
import type { ModelReply } from "./driver.js";

export function fail(message: string): never {
  throw new Error(`conformance: ${message}`);
}
export function expect(condition: unknown, message: string): void {
  if (!condition) fail(message);
}
/** A reply with one tool call. */
export const call = (name: string, input: Record<string, unknown> = {}): ModelReply => ({
  calls: [{ name, input }],
});
/** A reply with several tool calls in the one response. */
export const calls = (...list: Array<[string, Record<string, unknown>?]>): ModelReply => ({
  calls: list.map(([name, input]) => ({ name, input: input ?? {} })),
});
/** A reply with text and no tool call. */
export const text = (t: string): ModelReply => ({ text: t });
/** A tool result's `error_type`, when it is a skillshelf refusal. */
export const errorOf = (result: unknown) => (result as { error_type?: string } | null)?.error_type;
