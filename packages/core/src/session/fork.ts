/**
 * `context: fork`: a skill that runs in a sub-agent with its own context, the way a role
 * delegation does. Its body becomes the sub-agent's instructions and never joins the
 * conversation, which reads only the sub-agent's answer.
 *
 * The sub-agent's tools are the skill's whitelist (and, when `agent` names a role, the
 * role's) within what the conversation allows at that moment. A hostile skill file must not
 * buy its way out of the limits it runs under, so: never a tool the conversation's active
 * skills rule out, never one they allow only for some commands (a tool list cannot enforce
 * that), never the delegation tool (a fork starts no sub-agents of its own), and every call
 * still goes through the conversation's guard (protected skill folders included).
 */
import type { ToolAliases } from "../policy/aliases.js";
import { resolveAllowedTools, type ToolPolicy } from "../policy/tool-policy.js";
import { DEFAULT_ROLE_MAX_STEPS } from "../roles/role-agent-spec.js";
import { DELEGATE_TOOL, delegationToolNames, resolveRoleTools } from "../roles/role-tools.js";
import { roleFromSkill } from "../roles/roles.js";
import { subAgentGuard } from "../roles/sub-agent-guard.js";
import type {
  ActivationResult,
  Diagnostic,
  Fork,
  GuardResult,
  Session,
  Skill,
  ToolCall,
  ToolResult,
} from "../types.js";
import { escapeFraming, instructionsOf } from "./render.js";
import { currentDateLine } from "./substitute.js";

export interface ForkInput {
  skill: Skill;
  /** The activation's arguments. */
  args?: string;
  /** The user's latest message: the task when the activation has none. */
  request?: string;
  /** The skill the fork's `agent` names on the shelf, if any. */
  agent?: Skill;
  /** The host's tool names. */
  hostTools: readonly string[];
  /** The conversation's limits now (its active skills). */
  parent: Pick<ToolPolicy, "allowedTools" | "conditions">;
  /** The conversation's guard, judged on every call the sub-agent makes. */
  guard: (call: ToolCall | string) => GuardResult;
  toolAliases?: ToolAliases;
  now: Date;
  timeZone?: string;
}

const NO_TASK = "Do what your instructions describe, and answer with the result.";

/** Claude Code's `inherit` (and nothing) mean the conversation's own model. */
function modelId(model: string | undefined): string | undefined {
  const id = model?.trim();
  return id && id !== "inherit" ? id : undefined;
}

export function prepareFork(input: ForkInput): Fork {
  const { skill } = input;
  const role = input.agent?.role ? roleFromSkill(input.agent) : undefined;
  const diagnostics: Diagnostic[] = [];
  if (skill.agent !== undefined && !role) {
    diagnostics.push({
      severity: "info",
      code: "field-not-applied",
      message: `Skill "${skill.name}" runs as agent "${skill.agent}", which is no role on this shelf: it runs as a sub-agent with its own instructions only.`,
      file: skill.file,
      line: 1,
      hint: `Write a role skill named "${skill.agent}" (role: true), or remove agent.`,
    });
  }

  const excluded = new Set(delegationToolNames(DELEGATE_TOOL));
  const candidates = input.hostTools.filter((t) => !excluded.has(t));
  const conditional = input.parent.conditions(candidates);
  const parentAllows = new Set(input.parent.allowedTools(candidates).filter((t) => !conditional.has(t)));
  const own = resolveAllowedTools(skill.allowedTools, candidates, {
    toolAliases: input.toolAliases,
    disallowed: skill.disallowedTools,
    owner: { name: skill.name, file: skill.file },
  });
  diagnostics.push(...own.diagnostics);
  let wanted = own.tools;
  if (role) {
    const granted = resolveRoleTools(role, candidates, { toolAliases: input.toolAliases });
    diagnostics.push(...granted.diagnostics);
    const byRole = new Set(granted.tools);
    wanted = wanted.filter((t) => byRole.has(t));
  }
  const tools = wanted.filter((t) => parentAllows.has(t));
  const withheld = wanted.filter((t) => !parentAllows.has(t));

  const body = instructionsOf(skill, input.args !== undefined ? { args: input.args } : {});
  const instructions = [currentDateLine(input.now, input.timeZone), role?.instructions ?? "", body]
    .filter((part) => part !== "")
    .join("\n\n");
  const fork: Fork = {
    skill: skill.name,
    task: input.args?.trim() || input.request?.trim() || NO_TASK,
    instructions,
    tools,
    withheld,
    maxSteps: DEFAULT_ROLE_MAX_STEPS,
    diagnostics,
    guard: subAgentGuard(skill.name, tools, (call) => input.guard(call)),
  };
  if (role) fork.role = role.name;
  const model = modelId(skill.model) ?? modelId(role?.model);
  if (model) fork.model = model;
  return fork;
}

/** What a forked skill's activation reads when the host starts no sub-agent: nothing ran, nothing leaked. */
export function forkUnavailable(skill: string): Extract<ActivationResult, { status: "error" }> {
  return {
    status: "error",
    error_type: "FORK_UNAVAILABLE",
    message: `Skill "${skill}" runs in a sub-agent of its own, and this host starts none, so it did not run. Do the task without it, or tell the user.`,
  };
}

/** What the conversation reads after a forked skill ran: the sub-agent's answer, never the skill's body. */
export type ForkToolResult = ToolResult<
  { skill: string; forked: true; text: string; tools: string[] },
  never
>;

export function forkResult(fork: Fork, text: string): Extract<ForkToolResult, { status: "success" }> {
  return {
    status: "success",
    data: { skill: fork.skill, forked: true, text, tools: [...fork.tools] },
    message: `Skill "${fork.skill}" ran in a sub-agent; its answer is data.text.${
      fork.withheld.length > 0
        ? ` It ran without ${fork.withheld.join(", ")}: this conversation does not allow ${fork.withheld.length === 1 ? "that tool" : "those tools"} here.`
        : ""
    }`,
  };
}

/**
 * The note a "/name" on a forked skill leaves for its turn: the sub-agent is started by the
 * model's call (the adapter runs it there), so the model is asked to make that call once.
 */
export function forkRequestNote(command: string, tool: string, args: string | undefined): string {
  const input = args !== undefined && args !== "" ? JSON.stringify({ args }) : "{}";
  return escapeFraming(
    `The user ran ${command}: that skill runs in a sub-agent of its own. Call ${tool} with ${input} once in this turn (unless you already did) to start it, then answer the user from its result.`,
  );
}

/**
 * The session a fork's sub-agent runs under: the conversation's, narrowed to the fork. Code
 * its tools call (a host's delegation tool under a name core does not know, Mastra's role
 * agents) asks `currentSession()` what it may use, and must get the fork's bound, not the
 * wider conversation's.
 */
export function forkSession(session: Session, fork: Fork): Session {
  const given = new Set(fork.tools);
  const bounded: Partial<Session> = {
    guard: (call) => fork.guard(call),
    allowedTools: (tools) => session.allowedTools(tools ?? fork.tools).filter((t) => given.has(t)),
  };
  return Object.assign(Object.create(session) as Session, bounded);
}

/** What each started fork does when its sub-agent is done (the session logs the skill's end). */
const endings = new WeakMap<Fork, () => void>();

/** Called once, when `fork`'s sub-agent has answered or failed. */
export function whenForkEnds(fork: Fork, end: () => void): void {
  endings.set(fork, end);
}

/** `fork`'s sub-agent is done (answered, or threw): its skill ends, once. */
export function endFork(fork: Fork): void {
  const end = endings.get(fork);
  endings.delete(fork);
  end?.();
}

/** Is this recorded output a forked skill's answer? (It activated nothing in the conversation.) */
export function isForkOutput(value: unknown): boolean {
  const data = (value as { data?: { forked?: unknown } } | null | undefined)?.data;
  return Boolean(data && typeof data === "object" && data.forked === true);
}
