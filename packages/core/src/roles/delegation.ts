/**
 * Delegation: the one tool through which a lead agent hands a task to a role sub-agent.
 * Core owns its schema, input checks, tool resolution and the event; an adapter only runs
 * its framework's sub-agent with what `prepareDelegation` returns.
 */
import type {
  Diagnostic,
  EventSink,
  GuardResult,
  Role,
  Session,
  ToolCall,
  ToolResult,
  ToolSpec,
} from "../types.js";
import { roleAgentSpec } from "./role-agent-spec.js";
import { DELEGATE_TOOL, delegationToolNames, type RoleToolsOptions } from "./role-tools.js";
import { subAgentGuard } from "./sub-agent-guard.js";

export interface DelegationSpecOptions {
  /** Tool name (default "delegate"). */
  name?: string;
  /**
   * The host's other tool names: when one of them already is `name`, the delegation tool
   * takes a deterministic alternative (`skillshelf_delegate`, …) instead of replacing it.
   */
  tools?: readonly string[];
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The delegation tool `{ role, task }` for these roles; undefined when there are none. */
export function delegationToolSpec(
  roles: readonly Role[],
  options: DelegationSpecOptions = {},
): ToolSpec | undefined {
  if (roles.length === 0) return undefined;
  // A user-only role is refused when called: listing it would only invite the call. With
  // every role user-only the tool stays (a host made it, and roles hot-reload) but names none.
  const offered = roles.filter((r) => !r.userOnly);
  const lines = offered.length
    ? offered.map((r) => `- ${r.name}: ${clip(r.description, 200)}`)
    : ["(none takes a task from the model now: every role's file says disable-model-invocation)"];
  const taken = new Set(options.tools ?? []);
  const preferred = options.name ?? DELEGATE_TOOL;
  const name = delegationToolNames(preferred).find((n) => !taken.has(n)) ?? preferred;
  return {
    name,
    description:
      "Hand a self-contained task to a sub-agent with a specialised role; it returns its result as text. " +
      "The sub-agent does not see this conversation: put everything it needs into `task`.\nRoles:\n" +
      lines.join("\n"),
    inputSchema: {
      type: "object",
      properties: {
        role: {
          type: "string",
          ...(offered.length > 0 && { enum: offered.map((r) => r.name) }),
          description: "Which sub-agent does the task.",
        },
        task: {
          type: "string",
          description:
            "The complete task: the goal, the context and inputs it needs (files, links, constraints), and what to return.",
        },
      },
      required: ["role", "task"],
      additionalProperties: false,
    },
  };
}

export interface Delegation {
  role: Role;
  task: string;
  /** The host tools the sub-agent gets. */
  tools: string[];
  /** Tools its role allows that it does not get, because the skills active in the parent conversation rule them out. */
  withheld: string[];
  /** The most steps the sub-agent may take (the same in every framework). */
  maxSteps: number;
  /** The sub-agent's system prompt: today's date, then the role's instructions. */
  instructions: string;
  model?: string;
  diagnostics: Diagnostic[];
  /**
   * Judge each tool call the sub-agent makes before it runs, as the lead's calls are: a tool
   * it was not given, one the parent's active skills rule out for these arguments, or a write
   * into a skill folder or skillshelf's state is refused with a structured result.
   */
  guard: (call: ToolCall | string) => GuardResult;
}

export type DelegationErrorType = "UNKNOWN_ROLE" | "INVALID_ARGUMENTS" | "MODEL_INVOCATION_DISABLED";

/** A delegation a host ran itself (e.g. Mastra's `agents: {…}` route), to be recorded. */
export interface DelegationRecord {
  /** The role's name. */
  role: string;
  /** The task the sub-agent was given. */
  task: string;
  /** The host tools the sub-agent had (default: none recorded, `[]`). */
  tools?: readonly string[];
}

/**
 * Emit a `delegated` event. For hosts that start a role sub-agent without
 * `prepareDelegation`, so usage and `skillshelf stats` still count it. A malformed record is
 * ignored and a failing sink swallowed: recording must never break the host.
 */
export function recordDelegation(
  record: DelegationRecord,
  events: EventSink | false | undefined,
  at = new Date(),
): void {
  if (!events || !record || typeof record.role !== "string" || record.role.trim() === "") return;
  const tools = Array.isArray(record.tools) ? record.tools.filter((t) => typeof t === "string") : [];
  try {
    events.emit({
      type: "delegated",
      at: at.toISOString(),
      role: record.role.trim(),
      task: typeof record.task === "string" ? record.task.trim() : "",
      tools,
    });
  } catch {
    // never let the event sink break the host
  }
}

export interface PrepareDelegationOptions extends RoleToolsOptions {
  roles: readonly Role[];
  /** The host's tool names. */
  tools: readonly string[];
  events?: EventSink | false;
  now?: () => Date;
  timeZone?: string;
  /** The session of the conversation delegating: its active skills bound the sub-agent's tools. */
  parent?: Session;
  /**
   * What judges the sub-agent's calls when no conversation is delegating (a delegation tool
   * run on its own): the shelf's write protection, at least. Default: the parent's guard only.
   */
  judge?: Pick<Session, "guard">;
  /** Steps a sub-agent may take (default `DEFAULT_ROLE_MAX_STEPS`). */
  maxSteps?: number;
}

/**
 * Check a delegation call's input and resolve everything the sub-agent needs. Emits a
 * `delegated` event. Errors are results the lead model can act on, never exceptions.
 */
export function prepareDelegation(
  input: unknown,
  options: PrepareDelegationOptions,
): ToolResult<Delegation, DelegationErrorType> {
  const names = options.roles.filter((r) => !r.userOnly).map((r) => r.name);
  const record =
    input && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  if (typeof record.task !== "string" || record.task.trim() === "") {
    return {
      status: "error",
      error_type: "INVALID_ARGUMENTS",
      message: `"task" is missing: call the tool again with {"role": "<one of ${names.join(", ")}>", "task": "<the complete task>"}.`,
    };
  }
  const role = options.roles.find((r) => r.name === record.role);
  if (!role) {
    return {
      status: "error",
      error_type: "UNKNOWN_ROLE",
      message: `There is no role ${JSON.stringify(record.role ?? null)}. Use one of: ${names.join(", ") || "(none)"}.`,
    };
  }
  if (role.userOnly) {
    // The delegation tool is the model's call, and the role's file says the model never starts it.
    return {
      status: "error",
      error_type: "MODEL_INVOCATION_DISABLED",
      message: `The ${role.name} role is not delegated to by the model (its file says disable-model-invocation). Do the task without it, or tell the user.`,
    };
  }
  const now = (options.now ?? (() => new Date()))();
  // Built exactly as a role agent built ahead is, then bounded by the parent conversation.
  const spec = roleAgentSpec(role, options.tools, { ...options, now: () => now });
  // The parent's limits bound the sub-agent: delegating must never reach a tool the
  // conversation's active skills rule out.
  const parentAllows = options.parent ? new Set(options.parent.allowedTools(spec.tools)) : undefined;
  const tools = parentAllows ? spec.tools.filter((t) => parentAllows.has(t)) : spec.tools;
  const withheld = parentAllows ? spec.tools.filter((t) => !parentAllows.has(t)) : [];
  const task = record.task.trim();
  recordDelegation({ role: role.name, task, tools }, options.events, now);
  const judge = options.parent ?? options.judge;
  const delegation: Delegation = {
    role,
    task,
    tools,
    withheld,
    maxSteps: spec.maxSteps,
    instructions: spec.instructions(),
    diagnostics: spec.diagnostics,
    guard: subAgentGuard(role.name, tools, judge ? (call) => judge.guard(call) : undefined),
  };
  if (spec.model) delegation.model = spec.model;
  return {
    status: "success",
    data: delegation,
    message: `Delegating to the ${role.name} sub-agent with ${tools.length} tool(s)${
      withheld.length > 0
        ? ` (withheld, because the active skills do not allow them here: ${withheld.join(", ")})`
        : ""
    }.`,
  };
}
