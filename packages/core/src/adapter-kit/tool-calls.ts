/**
 * Running a model's tool calls the same way in every framework: skillshelf's own tools
 * answered by the session, every host tool guarded first and then run inside the session
 * (so a sub-agent it starts is bounded by the conversation's active skills).
 */
import { runInSession } from "../session/current-session.js";
import { endFork, type ForkToolResult, forkResult, forkSession } from "../session/fork.js";
import type { ActivationResult, Diagnostic, Fork, GuardResult, Session, ToolCall } from "../types.js";

/** What the model reads when a call names none of skillshelf's tools (any more). */
export function notASkillTool(toolName: string): Extract<ActivationResult, { status: "error" }> {
  return {
    status: "error",
    error_type: "NOT_FOUND",
    message: `"${toolName}" is not a skill tool in this conversation (the skills may have changed). Continue without it, or use a skill from the catalog.`,
  };
}

export interface SkillToolOptions {
  /**
   * Start the framework's sub-agent for a `context: fork` skill core prepared (its
   * instructions, tools, step limit, model id); resolve with its final text. Run every tool
   * call it makes through `fork.guard`. Without it, such a skill answers FORK_UNAVAILABLE.
   */
  fork?: (fork: Fork) => Promise<string>;
  /** Problems found preparing a fork (an `agent` that names no role, a whitelisted name that matches none). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/**
 * A call to one of skillshelf's tools, answered by the session: a result, or for a skill
 * script's run (and a forked skill's sub-agent) a promise of one (return it to the
 * framework, or await it).
 */
export function runSkillTool(
  session: Session,
  call: ToolCall,
  options: SkillToolOptions = {},
): NonNullable<ReturnType<Session["answerSkillTool"]>> | Promise<ForkToolResult> {
  const fork = options.fork ? session.fork(call) : undefined;
  if (fork && options.fork) return runFork(session, fork, options.fork, options.onDiagnostic);
  return session.answerSkillTool(call) ?? notASkillTool(call.name);
}

/**
 * The sub-agent runs inside the conversation's session narrowed to the fork, as a delegation
 * runs inside the conversation's: code its tools call (a delegation tool of the host's) is
 * bounded by the fork's tools, never wider.
 */
async function runFork(
  session: Session,
  fork: Fork,
  run: (fork: Fork) => Promise<string>,
  onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined,
): Promise<ForkToolResult> {
  if (onDiagnostic) for (const diagnostic of fork.diagnostics) onDiagnostic(diagnostic);
  let text: string;
  try {
    text = await runInSession(forkSession(session, fork), () => run(fork));
  } finally {
    endFork(fork);
  }
  return forkResult(fork, typeof text === "string" ? text : String(text ?? ""));
}

export type Blocked = Extract<GuardResult, { allowed: false }>["result"];

/**
 * A host tool call: refused with core's structured result when the session forbids it,
 * else `execute` runs inside the session. Synchronous on purpose: the tool's own return
 * value (a promise, a stream) comes back untouched.
 */
export function runHostTool<T>(session: Session, call: ToolCall, execute: () => T): T | Blocked {
  const verdict = session.guard(call);
  if (!verdict.allowed) return verdict.result;
  return runInSession(session, execute);
}

/**
 * Whether the session refuses every call of this host tool now, whatever its input: the
 * active skills leave it out. A framework that checks a call's input against the tool's own
 * schema before the tool runs (the AI SDK does, before `execute`) must skip that check for
 * such a call and let the guard answer: the framework's error would describe the schema of a
 * tool the model is not offered, and the call would read no refusal (and record none).
 */
export function refusesTool(session: Session, toolName: string): boolean {
  return !session.allowedTools([toolName]).includes(toolName);
}

/**
 * Core's refusal as an input-check failure, for a framework that hands a call of a tool
 * without `execute` (one the host's client runs) to the host instead of running it: the
 * only point where such a call can still be stopped is the framework's check of its input.
 * The error's message is the refusal as JSON, which `readRefusalText` finds again in the
 * framework's error text (and `withUnknownToolsAnswered` puts in the prompt as the refusal).
 */
export function refusalError(result: Blocked): Error {
  const error = new Error(JSON.stringify(result));
  error.name = "SkillshelfRefusal";
  return error;
}

/** The refusal `refusalError` carried, when a framework's error text ends with it; else undefined. */
export function readRefusalText(text: unknown): Blocked | undefined {
  if (typeof text !== "string") return undefined;
  const at = text.lastIndexOf('{"status":"error","error_type":"');
  if (at < 0 || !text.endsWith("}")) return undefined;
  try {
    const value = JSON.parse(text.slice(at)) as unknown;
    return isBlockedResult(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Is this a refusal core wrote? (By shape: it also comes back serialised in a later request.) */
export function isBlockedResult(output: unknown): output is Blocked {
  if (typeof output !== "object" || output === null) return false;
  const record = output as { status?: unknown; error_type?: unknown };
  return (
    record.status === "error" &&
    (record.error_type === "TOOL_NOT_ALLOWED" || record.error_type === "SKILL_FILES_PROTECTED")
  );
}

/**
 * The output to record for a tool call that failed (it threw, was denied, or the framework
 * reports an error): a structured error, so the call reads as failed however its text looks.
 */
export function toolErrorOutput(message: string): {
  status: "error";
  error_type: "TOOL_ERROR";
  message: string;
} {
  return { status: "error", error_type: "TOOL_ERROR", message };
}
