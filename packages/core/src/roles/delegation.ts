/**
 * Delegation: the one tool through which a lead agent hands a task to a role sub-agent.
 * Core owns its schema, input checks, tool resolution and the event; an adapter only runs
 * its framework's sub-agent with what `prepareDelegation` returns.
 */
import type { ToolAliases } from "../policy/aliases.js";
import { resolveAllowedTools } from "../policy/tool-policy.js";
import { currentDateLine } from "../session/substitute.js";
import type { Diagnostic, EventSink, Role, ToolResult, ToolSpec } from "../types.js";

export const DELEGATE_TOOL = "delegate";

export interface DelegationSpecOptions {
  /** Tool name (default "delegate"). */
  name?: string;
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
  const lines = roles.map((r) => `- ${r.name}: ${clip(r.description, 200)}`);
  return {
    name: options.name ?? DELEGATE_TOOL,
    description:
      "Hand a self-contained task to a sub-agent with a specialised role; it returns its result as text. " +
      "The sub-agent does not see this conversation: put everything it needs into `task`.\nRoles:\n" +
      lines.join("\n"),
    inputSchema: {
      type: "object",
      properties: {
        role: {
          type: "string",
          enum: roles.map((r) => r.name),
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

export interface RoleToolsOptions {
  toolAliases?: ToolAliases;
  /** Host tools a sub-agent never gets, whatever its whitelist (default: the delegation tool, so sub-agents don't recurse). */
  exclude?: readonly string[];
}

/** Of the host's tools, those a role may use, plus an `unknown-tool` warning per whitelist entry that matches none. */
export function resolveRoleTools(
  role: Role,
  tools: readonly string[],
  options: RoleToolsOptions = {},
): { tools: string[]; diagnostics: Diagnostic[] } {
  const exclude = new Set(options.exclude ?? [DELEGATE_TOOL]);
  const candidates = tools.filter((t) => !exclude.has(t));
  return resolveAllowedTools(role.allowedTools, candidates, {
    toolAliases: options.toolAliases,
    disallowed: role.disallowedTools,
    owner: { name: role.name, file: role.file },
  });
}

export interface Delegation {
  role: Role;
  task: string;
  /** The host tools the sub-agent gets. */
  tools: string[];
  /** The sub-agent's system prompt: today's date, then the role's instructions. */
  instructions: string;
  model?: string;
  diagnostics: Diagnostic[];
}

export type DelegationErrorType = "UNKNOWN_ROLE" | "INVALID_ARGUMENTS";

export interface PrepareDelegationOptions extends RoleToolsOptions {
  roles: readonly Role[];
  /** The host's tool names. */
  tools: readonly string[];
  events?: EventSink | false;
  now?: () => Date;
  timeZone?: string;
}

/**
 * Check a delegation call's input and resolve everything the sub-agent needs. Emits a
 * `delegated` event. Errors are results the lead model can act on, never exceptions.
 */
export function prepareDelegation(
  input: unknown,
  options: PrepareDelegationOptions,
): ToolResult<Delegation, DelegationErrorType> {
  const names = options.roles.map((r) => r.name);
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
  const now = (options.now ?? (() => new Date()))();
  const { tools, diagnostics } = resolveRoleTools(role, options.tools, options);
  const task = record.task.trim();
  if (options.events) {
    try {
      options.events.emit({ type: "delegated", at: now.toISOString(), role: role.name, task, tools });
    } catch {
      // never let the event sink break the host
    }
  }
  const delegation: Delegation = {
    role,
    task,
    tools,
    instructions: `${currentDateLine(now, options.timeZone)}\n\n${role.instructions}`,
    diagnostics,
  };
  if (role.model) delegation.model = role.model;
  return {
    status: "success",
    data: delegation,
    message: `Delegating to the ${role.name} sub-agent with ${tools.length} tool(s).`,
  };
}
