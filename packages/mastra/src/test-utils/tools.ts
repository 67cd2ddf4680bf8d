/**
 * A Mastra tool that takes any object input, as the attack tests' host and client tools do:
 * with `execute` the framework runs it, without one it is a client tool (Mastra hands its
 * calls to the caller).
 */
import { createTool } from "@mastra/core/tools";
import { z } from "zod";

export function looseTool(
  id: string,
  description: string,
  execute?: (input: Record<string, unknown>) => Promise<unknown>,
) {
  return createTool({
    id,
    description,
    inputSchema: z.object({}).passthrough(),
    ...(execute && { execute }),
  });
}
