/**
 * A call to a tool that does not exist. Every framework answers one in words of its own, and
 * all three list every tool they have registered: the AI SDK's `NoSuchToolError`
 * ("… Available tools: …"), Mastra's "Tool … not found. Available tools: …", LangChain's
 * "… is not a valid tool, try one of […]". An adapter keeps the tools an active skill rules
 * out (and the skill tools no step offers now) registered but hidden, so that a call to one
 * reaches core's refusal; those lists then name them to the model, and a vetoed skill's tool
 * with them. So the model reads core's answer instead, the same in every framework, and it
 * names no tool.
 */
/** The longest tool name echoed back (the name is the model's; a hostile one can be long). */
const MAX_ECHOED_NAME = 120;

export interface UnknownToolResult {
  status: "error";
  error_type: "UNKNOWN_TOOL";
  message: string;
}

/** What the model reads for a call that names no tool it has. */
export function unknownTool(toolName: string): UnknownToolResult {
  const name = toolName.length > MAX_ECHOED_NAME ? `${toolName.slice(0, MAX_ECHOED_NAME)}…` : toolName;
  return {
    status: "error",
    error_type: "UNKNOWN_TOOL",
    message: `There is no tool named ${JSON.stringify(name)}. Use only the tools you are offered now, by their exact names.`,
  };
}

/**
 * The frameworks' own texts for a call to a tool they do not have (their current wording;
 * the adapters' tests run at the lowest and the latest versions each peer range allows).
 */
const FRAMEWORK_UNKNOWN_TOOL: readonly RegExp[] = [
  /^(?:AI_NoSuchToolError: )?Model tried to call unavailable tool '/u, // AI SDK
  /^Tool "[^"\n]*" not found\. /u, // Mastra
  /^Error: [^\n]* is not a valid tool, try one of \[/u, // LangChain (ToolNode)
];

/** True when a tool result's text is a framework's "no such tool" error. */
export function isFrameworkUnknownToolText(text: unknown): boolean {
  return typeof text === "string" && FRAMEWORK_UNKNOWN_TOOL.some((re) => re.test(text));
}

interface ToolResultPart {
  type: "tool-result";
  toolName: string;
  output?: { type?: string; value?: unknown };
}

function isToolResult(part: unknown): part is ToolResultPart {
  return (
    typeof part === "object" &&
    part !== null &&
    (part as { type?: unknown }).type === "tool-result" &&
    typeof (part as { toolName?: unknown }).toolName === "string"
  );
}

/**
 * Whether a tool result in a prompt is a framework's answer to a call of a tool that does
 * not exist: an error result for a name the step has not registered, or (a name registered
 * since) one worded as a framework's "no such tool" error.
 */
function answersUnknownTool(part: ToolResultPart, registered: ReadonlySet<string>): boolean {
  const output = part.output;
  if (!output || typeof output.type !== "string") return false;
  const text = typeof output.value === "string" ? output.value : undefined;
  if (output.type.startsWith("error") && !registered.has(part.toolName)) return true;
  return (output.type.startsWith("error") || output.type === "text") && isFrameworkUnknownToolText(text);
}

/**
 * A language-model prompt (the AI SDK's provider interface, which Mastra speaks too) with the
 * results of calls to tools that do not exist replaced by core's answer. `registered`: every
 * tool the framework has for this step, hidden ones included. The same array when nothing
 * changes.
 */
export function withUnknownToolsAnswered<P>(prompt: P, registered: ReadonlySet<string>): P {
  if (!Array.isArray(prompt)) return prompt;
  let changed = false;
  const out = prompt.map((message: unknown) => {
    const content = (message as { role?: unknown; content?: unknown })?.content;
    if ((message as { role?: unknown })?.role !== "tool" || !Array.isArray(content)) return message;
    let touched = false;
    const parts = content.map((part: unknown) => {
      if (!isToolResult(part) || !answersUnknownTool(part, registered)) return part;
      touched = true;
      return { ...part, output: { type: "json", value: unknownTool(part.toolName) } };
    });
    if (!touched) return message;
    changed = true;
    return { ...(message as object), content: parts };
  });
  return (changed ? out : prompt) as P;
}
