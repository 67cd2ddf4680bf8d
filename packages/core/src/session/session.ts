/**
 * A session: one conversation's active skills and every rule that follows from them.
 * `plan()` turns a user message into what the host needs for one model call; the model's
 * activation calls, the user's "/name" commands and the host's tool calls all go through
 * the same checks, and every decision is emitted as an event.
 *
 * The state is plain JSON (`{ active: [...] }`); everything else here is a cache derived
 * from it and from the current skill list, so a checkpointed state resumes exactly.
 */

import type { ToolAliases } from "../policy/aliases.js";
import { createToolPolicy, type ToolPolicy } from "../policy/tool-policy.js";
import type {
  ActivationResult,
  ActiveSkill,
  Candidate,
  Diagnostic,
  EventSink,
  GuardResult,
  MatchResult,
  PlanInput,
  Session,
  SessionState,
  Skill,
  SkillEvent,
  SkillSource,
  ToolSpec,
  TurnPlan,
} from "../types.js";
import {
  ACTIVATE_SKILL_TOOL,
  activateSkillToolSpec,
  createToolNameIndex,
  readActivationInput,
  skillToolSpec,
  type ToolNameIndex,
} from "./activation-tools.js";
import { parseExplicitInvocation, resolveInvokedSkill } from "./explicit-invocation.js";
import { skillResources } from "./resources.js";
import { currentDateLine, substituteArguments } from "./substitute.js";

/** Stage 1, as the session calls it (the shelf passes its matcher). */
export type SessionMatcher = (skills: readonly Skill[], message: string) => MatchResult;

/** The catalog, as the session calls it (the shelf passes its budgeted catalog builder). */
export type SessionCatalog = (input: {
  /** Skills the model may activate now (model-invocable, not roles, not active). */
  skills: readonly Skill[];
  /** This turn's stage-1 candidates among them, best first. */
  candidates: readonly Candidate[];
  /** The shelf's whole skill list these were taken from (stable until a refresh changes it): a cache key. */
  list: readonly Skill[];
  /** Names of the active skills (left out of `skills`): a cache key. */
  active: readonly string[];
}) => {
  text: string;
  /**
   * The skills the text names (in full or by name), when it cannot name them all within its
   * budget: `activate_skill`'s enum is then limited to these, so the tool schema stays as
   * small as the catalog. Skills left out are still offered when a message matches them.
   */
  names?: readonly string[];
};

/** Where activations are recorded as use (so the catalog order follows real use). */
export interface UsageRecorder {
  record(name: string, at: Date): void;
}

export interface SessionOptions {
  /** Where skills come from: a shelf, or a fixed list in tests. */
  skills: SkillSource;
  /** A checkpointed state to resume. */
  state?: SessionState;
  match?: SessionMatcher;
  catalog?: SessionCatalog;
  usage?: UsageRecorder;
  events?: EventSink | false;
  /** Map whitelist names (Claude Code's `Read`, `Bash(git:*)`) to the host's tool names or globs. */
  toolAliases?: ToolAliases;
  /** How many top candidates get their own `skill_<name>` tool (default 3). */
  topCandidates?: number;
  /** The clock (tests pin it). */
  now?: () => Date;
  /** Time zone for the date given to active skills (default: the runtime's). */
  timeZone?: string;
}

const EMPTY_MATCH: MatchResult = { candidates: [], vetoed: [], ambiguous: false };
const BY_VALUES = new Set<ActiveSkill["by"]>(["model", "user", "code"]);

/** Everything derived from one version of the skill list. */
interface SkillsView {
  list: readonly Skill[];
  tools: ToolNameIndex;
  /** Skills the model may be offered: not `disable-model-invocation`, not roles. */
  offerable: Skill[];
  offerableNames: Set<string>;
  /** Their names, in list order. */
  offerableList: string[];
  specs: Map<string, ToolSpec>;
}

/**
 * One view per skill list, shared by every session over it. Stateless hosts build a session
 * per step (and per tool call); sharing `offerable` keeps it the same array, so the matcher's
 * per-list index is built once instead of once per session (≈200 ms at 900 skills).
 */
const views = new WeakMap<readonly Skill[], SkillsView>();

function sharedView(list: readonly Skill[]): SkillsView {
  let view = views.get(list);
  if (!view) {
    const offerable = list.filter((s) => !s.disableModelInvocation && !s.role);
    view = {
      list,
      tools: createToolNameIndex(list),
      offerable,
      offerableNames: new Set(offerable.map((s) => s.name)),
      offerableList: offerable.map((s) => s.name),
      specs: new Map(),
    };
    views.set(list, view);
  }
  return view;
}

/** Internals the history replay needs; not part of the public Session. */
export interface SessionInternals {
  /** Run without emitting events or recording usage (replaying what already happened). */
  silently<T>(fn: () => T): T;
  /** Treat this user message as already planned (its candidates and "/name" were handled). */
  markSeen(message: string): void;
}

/** Keep what is well-formed in a checkpoint: a bad state must never crash the host. */
function sanitizeState(state: SessionState | undefined, now: Date): SessionState {
  const active: ActiveSkill[] = [];
  const seen = new Set<string>();
  const entries = Array.isArray(state?.active) ? state.active : [];
  for (const raw of entries as unknown[]) {
    if (!raw || typeof raw !== "object") continue;
    const entry = raw as Partial<ActiveSkill>;
    if (typeof entry.name !== "string" || entry.name === "" || seen.has(entry.name)) continue;
    seen.add(entry.name);
    const item: ActiveSkill = {
      name: entry.name,
      by: BY_VALUES.has(entry.by as ActiveSkill["by"]) ? (entry.by as ActiveSkill["by"]) : "code",
      at: typeof entry.at === "string" ? entry.at : now.toISOString(),
    };
    if (typeof entry.args === "string") item.args = entry.args;
    active.push(item);
  }
  return { active };
}

function list(names: readonly string[], max = 20): string {
  if (names.length === 0) return "(none)";
  const shown = names.slice(0, max).join(", ");
  return names.length > max ? `${shown}, … (${names.length - max} more)` : shown;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

export function createSession(options: SessionOptions): Session {
  return createSessionWithInternals(options).session;
}

export function createSessionWithInternals(options: SessionOptions): {
  session: Session;
  internals: SessionInternals;
} {
  const source = options.skills;
  const clock = options.now ?? (() => new Date());
  const sink = options.events || undefined;
  const topCount = options.topCandidates ?? 3;
  const aliases = options.toolAliases;
  const state = sanitizeState(options.state, clock());

  let silent = 0;
  let view: SkillsView | undefined;
  let seenMessage: string | undefined;
  let lastMatch: MatchResult = EMPTY_MATCH;
  let matchedMessage: string | undefined;
  let matchedList: readonly Skill[] | undefined;
  let knownTools: readonly string[] | undefined;
  let policyCache: { list: readonly Skill[]; key: string; policy: ToolPolicy; skills: Skill[] } | undefined;
  let catalogCache:
    | { key: string; list: readonly Skill[]; text: string; names: readonly string[] | undefined }
    | undefined;
  let activateCache: { key: string; list: readonly Skill[]; spec: ToolSpec | undefined } | undefined;

  const emit = (event: SkillEvent) => {
    if (silent > 0 || !sink) return;
    try {
      sink.emit(event);
    } catch {
      // An event sink must never break the host's turn.
    }
  };

  const skillsView = (): SkillsView => {
    const current = source.skills();
    if (view?.list !== current) view = sharedView(current);
    return view;
  };

  const isActive = (name: string) => state.active.some((a) => a.name === name);
  const activeKey = () => state.active.map((a) => a.name).join("\u0000");

  const activeSkills = (): Skill[] => {
    const out: Skill[] = [];
    for (const a of state.active) {
      const skill = source.get(a.name);
      if (skill) out.push(skill); // a skill removed from disk stays in the state, inert, until it returns
    }
    return out;
  };

  const policy = (): { policy: ToolPolicy; skills: Skill[] } => {
    const { list } = skillsView();
    const key = activeKey();
    if (!policyCache || policyCache.list !== list || policyCache.key !== key) {
      const skills = activeSkills();
      policyCache = { list, key, skills, policy: createToolPolicy(skills, { toolAliases: aliases }) };
    }
    return policyCache;
  };

  const instructionsOf = (skill: Skill, entry: ActiveSkill): string =>
    substituteArguments(skill.body, {
      args: entry.args,
      argumentNames: skill.arguments,
      skillDir: skill.dir,
      positional:
        Boolean(skill.argumentHint) || skill.arguments.length > 0 || skill.body.includes("$ARGUMENTS"),
    }).trim();

  // Rendered once per skill version and arguments: a long body is not re-substituted every step.
  const blockCache = new Map<string, string>();
  const renderBlock = (skill: Skill, entry: ActiveSkill): string => {
    const key = `${skill.name}\u0000${skill.hash}\u0000${entry.args ?? ""}`;
    let block = blockCache.get(key);
    if (block === undefined) {
      if (blockCache.size > 64) blockCache.clear();
      block = buildBlock(skill, entry);
      blockCache.set(key, block);
    }
    return block;
  };
  const buildBlock = (skill: Skill, entry: ActiveSkill): string => {
    const resources = skillResources(skill);
    const lines = [`<skill_content name="${escapeAttribute(skill.name)}">`, instructionsOf(skill, entry)];
    if (resources.length > 0) {
      lines.push(
        `<skill_resources dir="${escapeAttribute(skill.dir ?? "")}">`,
        ...resources,
        "</skill_resources>",
      );
    }
    lines.push("</skill_content>");
    return lines.join("\n");
  };

  const activeSection = (now: Date, allowed: string[] | undefined): string => {
    const blocks: string[] = [];
    for (const entry of state.active) {
      const skill = source.get(entry.name);
      if (skill) blocks.push(renderBlock(skill, entry));
    }
    if (blocks.length === 0) return "";
    const head = [
      `Active skills (${blocks.length}): follow their instructions for the current task.`,
      currentDateLine(now, options.timeZone),
    ];
    if (allowed) {
      head.push(
        allowed.length > 0
          ? `While these skills are active you may use only these tools: ${allowed.join(", ")} (and the skill activation tools).`
          : "While these skills are active you may use no tools except the skill activation tools.",
      );
    }
    return `${head.join("\n")}\n\n${blocks.join("\n\n")}`;
  };

  const effectiveAllowed = (): string[] | null => {
    const { policy: p, skills } = policy();
    if (!p.restricted) return null;
    if (knownTools) return p.allowedTools(knownTools);
    // The host's tools are not known yet: report the whitelists as written.
    const declared = skills.find((s) => s.allowedTools)?.allowedTools;
    return declared ? [...declared] : null;
  };

  const refuse = (
    skill: string,
    by: ActiveSkill["by"],
    error_type: Exclude<ActivationResult, { status: "success" }>["error_type"],
    message: string,
  ): ActivationResult => {
    emit({ type: "activation-refused", at: clock().toISOString(), skill, by, error_type });
    return { status: "error", error_type, message };
  };

  const success = (skill: Skill, entry: ActiveSkill, message: string): ActivationResult => {
    const now = clock();
    const allowed = effectiveAllowed();
    let text = message;
    if (allowed) {
      text +=
        allowed.length > 0
          ? ` While it is active you may use only these tools: ${list(allowed)}.`
          : " While it is active you may use no tools besides the skill tools.";
    }
    const resources = skillResources(skill);
    if (resources.length > 0) {
      text += ` It comes with ${resources.length} file(s) under ${skill.dir} (see resources); read one only when the instructions call for it.`;
    }
    return {
      status: "success",
      data: {
        name: skill.name,
        instructions: `${currentDateLine(now, options.timeZone)}\n\n${instructionsOf(skill, entry)}`,
        allowedTools: allowed,
        resources,
      },
      message: text,
    };
  };

  const deactivateInternal = (name: string): boolean => {
    const index = state.active.findIndex((a) => a.name === name);
    if (index < 0) return false;
    state.active.splice(index, 1);
    emit({ type: "deactivated", at: clock().toISOString(), skill: name });
    return true;
  };

  const activateInternal = (
    requested: string,
    by: ActiveSkill["by"],
    args: string | undefined,
    explicitCommand = false,
  ): ActivationResult => {
    const skill =
      source.get(requested) ?? (by === "user" ? resolveInvokedSkill(source, requested) : undefined);
    if (!skill) {
      const names = skillsView().offerable.map((s) => s.name);
      return refuse(
        requested,
        by,
        "NOT_FOUND",
        `There is no skill named "${requested}". Skills you can activate: ${list(names)}. ` +
          "Use one of these exact names, or continue without a skill.",
      );
    }
    const name = skill.name;
    if (by === "model" && skill.role) {
      return refuse(
        name,
        by,
        "MODEL_INVOCATION_DISABLED",
        `"${name}" is a sub-agent role, not a skill to activate here. Delegate the task to it with the delegation tool if one is offered; otherwise continue without it.`,
      );
    }
    if (by === "model" && skill.disableModelInvocation) {
      return refuse(
        name,
        by,
        "MODEL_INVOCATION_DISABLED",
        `Skill "${name}" runs only when the user asks for it. Do not start it or do its task yourself; if it seems needed, tell the user they can run it by typing /${name}${skill.argumentHint ? ` ${skill.argumentHint}` : ""}.`,
      );
    }
    if (by === "user" && !skill.userInvocable) {
      return refuse(
        name,
        by,
        "NOT_USER_INVOCABLE",
        `Skill "${name}" cannot be started with /${name}: it is used automatically when a request matches it. Describe the task instead.`,
      );
    }
    const now = clock();
    const existing = state.active.find((a) => a.name === name);
    if (existing) {
      const newArgs = args !== undefined && args !== "" && args !== (existing.args ?? "");
      if (newArgs) {
        existing.args = args;
        existing.at = now.toISOString();
        emit({ type: "activated", at: existing.at, skill: name, by, args });
        options.usage?.record(name, now);
        return success(
          skill,
          existing,
          `Skill "${name}" was already active; its arguments are now "${args}".`,
        );
      }
      if (explicitCommand) {
        // The same "/name args" seen again (a stateless host replanning): nothing new happened.
        return success(skill, existing, `Skill "${name}" is active.`);
      }
      return refuse(
        name,
        by,
        "ALREADY_ACTIVE",
        `Skill "${name}" is already active and its instructions are in the system prompt. Do not activate it again; continue following them.`,
      );
    }
    if (skill.group !== undefined) {
      const rival = state.active.find((a) => a.name !== name && source.get(a.name)?.group === skill.group);
      if (rival) {
        if (by === "model") {
          return refuse(
            name,
            by,
            "GROUP_CONFLICT",
            `Skill "${name}" and the active skill "${rival.name}" are alternatives (group "${skill.group}"); only one can be active. Continue with "${rival.name}", or ask the user whether to switch (they can type /${name}).`,
          );
        }
        // The user (or the host's code) chose: switch.
        deactivateInternal(rival.name);
      }
    }
    const entry: ActiveSkill = { name, by, at: now.toISOString() };
    if (args !== undefined && args !== "") entry.args = args;
    state.active.push(entry);
    const event: SkillEvent = { type: "activated", at: entry.at, skill: name, by };
    if (entry.args !== undefined) event.args = entry.args;
    emit(event);
    if (silent === 0) {
      try {
        options.usage?.record(name, now);
      } catch {
        // Usage is a ranking hint; losing one record must not fail the activation.
      }
    }
    return success(
      skill,
      entry,
      `Skill "${name}" is now active. Follow its instructions (in this result, and in the system prompt from your next step on) to do the task.`,
    );
  };

  const activationToolsFor = (
    top: Skill[],
    v: SkillsView,
    listed: readonly string[] | undefined,
  ): ToolSpec[] => {
    const specs: ToolSpec[] = [];
    for (const skill of top) {
      let spec = v.specs.get(skill.name);
      if (!spec) {
        spec = skillToolSpec(skill, v.tools.toolName(skill.name));
        v.specs.set(skill.name, spec);
      }
      specs.push(spec);
    }
    const key = `${activeKey()}\u0001${top.map((s) => s.name).join("\u0000")}\u0001${listed?.join("\u0000") ?? ""}`;
    if (!activateCache || activateCache.list !== v.list || activateCache.key !== key) {
      const skip = new Set(top.map((s) => s.name));
      const names = listed
        ? listed.filter((name) => !skip.has(name) && !isActive(name) && v.offerableNames.has(name))
        : v.offerableList.filter((name) => !skip.has(name) && !isActive(name));
      activateCache = { key, list: v.list, spec: activateSkillToolSpec(names) };
    }
    if (activateCache.spec) specs.push(activateCache.spec);
    return specs;
  };

  const catalogFor = (
    v: SkillsView,
    candidates: readonly Candidate[],
  ): { text: string; names: readonly string[] | undefined } => {
    if (!options.catalog) return { text: "", names: undefined };
    const key = `${activeKey()}\u0001${candidates.map((c) => c.name).join("\u0000")}`;
    if (!catalogCache || catalogCache.list !== v.list || catalogCache.key !== key) {
      const skills = state.active.length > 0 ? v.offerable.filter((s) => !isActive(s.name)) : v.offerable;
      const active = state.active.map((a) => a.name);
      const built =
        skills.length > 0 ? options.catalog({ skills, candidates, list: v.list, active }) : { text: "" };
      catalogCache = { key, list: v.list, text: built.text, names: built.names };
    }
    return catalogCache;
  };

  const session: Session = {
    get state() {
      return state;
    },

    plan(input: PlanInput): TurnPlan {
      const now = clock();
      const v = skillsView();
      knownTools = input.tools;
      const message = input.message;
      let explicit: ActivationResult | undefined;
      const fresh = message !== undefined && message !== seenMessage && !input.planned;

      if (message !== undefined) {
        const invocation = parseExplicitInvocation(message);
        const skill = invocation ? resolveInvokedSkill(source, invocation.name) : undefined;
        let commandHandled = false;
        if (invocation && skill) {
          // Only a new message runs the command: replanning the same message (the next
          // step of a tool loop) must not run it, or count it, twice.
          if (fresh) explicit = activateInternal(skill.name, "user", invocation.args, true);
          commandHandled = fresh ? explicit?.status === "success" : isActive(skill.name);
        }
        if (commandHandled) {
          lastMatch = EMPTY_MATCH;
          matchedMessage = message;
        } else if (fresh || matchedMessage !== message || matchedList !== v.list) {
          lastMatch =
            options.match && v.offerable.length > 0 ? options.match(v.offerable, message) : EMPTY_MATCH;
          matchedMessage = message;
          matchedList = v.list;
          if (fresh) {
            emit({
              type: "candidates",
              at: now.toISOString(),
              message,
              candidates: lastMatch.candidates,
              vetoed: lastMatch.vetoed,
              ambiguous: lastMatch.ambiguous,
            });
          }
        }
        seenMessage = message;
      }

      const candidates = lastMatch.candidates.filter(
        (c) => v.offerableNames.has(c.name) && !isActive(c.name),
      );
      const top: Skill[] = [];
      for (const c of candidates) {
        if (top.length >= topCount) break;
        const skill = source.get(c.name);
        if (skill) top.push(skill);
      }
      const catalog = catalogFor(v, candidates);
      const activationTools = activationToolsFor(top, v, catalog.names);

      const { policy: p } = policy();
      const allowedTools = p.allowedTools(input.tools);
      const diagnostics: Diagnostic[] = p.restricted ? p.unknownTools(input.tools) : [];

      const sections = [catalog.text, activeSection(now, p.restricted ? allowedTools : undefined)].filter(
        (s) => s !== "",
      );

      const plan: TurnPlan = {
        system: sections.join("\n\n"),
        activationTools,
        allowedTools,
        activeToolNames: [...allowedTools, ...activationTools.map((t) => t.name)],
        candidates,
        ambiguous: candidates.length > 1 && lastMatch.ambiguous,
        diagnostics,
      };
      if (explicit) plan.explicit = explicit;
      return plan;
    },

    activate(name, activateOptions = {}) {
      return activateInternal(name, activateOptions.by ?? "code", activateOptions.args);
    },

    deactivate(name) {
      return deactivateInternal(name);
    },

    isActivationTool(toolName) {
      return toolName === ACTIVATE_SKILL_TOOL || skillsView().tools.skillName(toolName) !== undefined;
    },

    callActivationTool(toolName, input) {
      const isGeneric = toolName === ACTIVATE_SKILL_TOOL;
      const target = isGeneric ? undefined : skillsView().tools.skillName(toolName);
      if (!isGeneric && target === undefined) return undefined;
      const parsed = readActivationInput(input, isGeneric);
      if (!parsed.ok) {
        return refuse(
          target ?? "",
          "model",
          "INVALID_ARGUMENTS",
          `${toolName} was called with invalid input: ${parsed.problem}. Call it again with ${
            isGeneric
              ? '{"name": "<skill name from the catalog>", "args": "<optional>"}'
              : '{"args": "<optional>"}'
          }.`,
        );
      }
      return activateInternal(target ?? parsed.name!, "model", parsed.args);
    },

    guard(toolName): GuardResult {
      if (session.isActivationTool(toolName)) return { allowed: true };
      const { policy: p } = policy();
      const decision = p.decide(toolName);
      if (decision.allowed) return decision;
      emit({
        type: "tool-blocked",
        at: clock().toISOString(),
        tool: toolName,
        active: state.active.map((a) => a.name),
        skill: decision.skill,
      });
      const allowed = knownTools ? p.allowedTools(knownTools) : undefined;
      const message =
        decision.reason === "disallowed"
          ? `Tool "${toolName}" is not allowed while skill "${decision.skill}" is active (its disallowed-tools include "${decision.entries[0]}"). Do the task without it${
              allowed ? `, using: ${list(allowed)}` : ""
            }, or ask the user.`
          : `Tool "${toolName}" is not allowed while skill "${decision.skill}" is active: ${
              allowed
                ? allowed.length > 0
                  ? `the tools you may use are ${list(allowed)}`
                  : "no tools may be used"
                : `its allowed-tools are ${list(decision.entries)}`
            }. Use one of those, or ask the user before going outside the skill.`;
      return { allowed: false, result: { status: "error", error_type: "TOOL_NOT_ALLOWED", message } };
    },

    allowedTools(tools) {
      return policy().policy.allowedTools(tools);
    },

    active() {
      return activeSkills();
    },

    toJSON() {
      return { active: state.active.map((a) => ({ ...a })) };
    },
  };

  function session_silently<T>(fn: () => T): T {
    silent++;
    try {
      return fn();
    } finally {
      silent--;
    }
  }

  return {
    session,
    internals: {
      silently: session_silently,
      markSeen(message) {
        seenMessage = message;
      },
    },
  };
}
