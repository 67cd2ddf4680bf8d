/**
 * Attaching tool results to the calls they answer, for a history rebuilt from a framework's
 * messages. A model chooses its tool-call ids, and some providers repeat them (`call_0` in
 * every response), so an id alone does not say which call a result belongs to: keyed by id,
 * a blocked call's error could land on the activation made beside it (the next step then
 * replays no activation, and its whitelist is gone), or a host tool's output the model wrote
 * could land on a refused activation (and read as its success). A result goes to the oldest
 * call still waiting with its id and, when the result names its tool, that tool's name.
 */
import type { HistoryItem } from "../types.js";

type ToolCallItem = Extract<HistoryItem, { kind: "tool-call" }>;

export interface ToolResultPairing {
  /** A call as it was made (in message order); items without an id never get a result. */
  call(item: ToolCallItem): void;
  /** A result, in message order: attached to the call it answers; false when none waits for it. */
  result(id: string, toolName: string | undefined, output: unknown): boolean;
}

export function toolResultPairing(): ToolResultPairing {
  const waiting = new Map<string, ToolCallItem[]>();
  return {
    call(item) {
      if (item.id === undefined) return;
      const list = waiting.get(item.id);
      if (list) list.push(item);
      else waiting.set(item.id, [item]);
    },
    result(id, toolName, output) {
      const list = waiting.get(id);
      if (!list) return false;
      const at = toolName === undefined ? 0 : list.findIndex((item) => item.toolName === toolName);
      if (at < 0) return false;
      const [item] = list.splice(at, 1);
      if (list.length === 0) waiting.delete(id);
      item!.output = output;
      return true;
    },
  };
}
