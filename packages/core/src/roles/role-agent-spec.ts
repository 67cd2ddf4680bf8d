/**
 * A role agent built ahead of any task (LangChain's `createRoleAgent`, Mastra's role agents
 * for `agents: {…}`): the same instructions, tools, model and step limit a delegation gets,
 * so every route builds a role's sub-agent identically. No task, so nothing is recorded.
 */
import { currentDateLine } from "../session/substitute.js";
import type { Diagnostic, Role } from "../types.js";
import { type RoleToolsOptions, resolveRoleTools } from "./role-tools.js";

/** How many steps a role sub-agent may take when the host sets none (the same in every adapter). */
export const DEFAULT_ROLE_MAX_STEPS = 10;

export interface RoleAgentSpecOptions extends RoleToolsOptions {
  /** Steps the sub-agent may take (default `DEFAULT_ROLE_MAX_STEPS`). */
  maxSteps?: number;
  now?: () => Date;
  timeZone?: string;
}

export interface RoleAgentSpec {
  role: Role;
  /**
   * The sub-agent's system prompt: today's date, then the role's instructions. A function,
   * because an agent built ahead runs on later days: call it per model call (or per run).
   */
  instructions: () => string;
  /** Of the host's tools, those the role may use. */
  tools: string[];
  /** The role's `model:` id, when it names one. */
  model?: string;
  maxSteps: number;
  /** E.g. a whitelist entry that matches none of the host's tools. */
  diagnostics: Diagnostic[];
}

/** The system prompt of a role's sub-agent at `now`. */
export function roleInstructions(role: Role, now: Date, timeZone?: string): string {
  return `${currentDateLine(now, timeZone)}\n\n${role.instructions}`;
}

export function roleAgentSpec(
  role: Role,
  hostTools: readonly string[],
  options: RoleAgentSpecOptions = {},
): RoleAgentSpec {
  const clock = options.now ?? (() => new Date());
  const { tools, diagnostics } = resolveRoleTools(role, hostTools, options);
  const spec: RoleAgentSpec = {
    role,
    instructions: () => roleInstructions(role, clock(), options.timeZone),
    tools,
    maxSteps: options.maxSteps ?? DEFAULT_ROLE_MAX_STEPS,
    diagnostics,
  };
  if (role.model) spec.model = role.model;
  return spec;
}
