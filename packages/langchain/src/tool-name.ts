import type { ClientTool, ServerTool } from "@langchain/core/tools";

export type AnyTool = ClientTool | ServerTool;

/** A tool's name; provider built-in tools may carry only a `type`, so they are matched by that. */
export function toolName(t: AnyTool): string {
  const named = t as { name?: unknown; type?: unknown };
  return typeof named.name === "string" ? named.name : String(named.type ?? "");
}
