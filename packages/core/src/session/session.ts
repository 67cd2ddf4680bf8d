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
  ACTIVATE_SKILL_TOOL_NAMES,
  activateSkillToolSpec,
  createToolNameIndex,
  readActivationInput,
  SKILL_TOOL_PREFIX,
  skillToolSpec,
  type ToolNameIndex,
} from "./activation-tools.js";
import { commandNote, type Refusal } from "./command-note.js";
import { closestSkillNames, parseExplicitInvocation, resolveInvokedSkill } from "./explicit-invocation.js";
import { namesOnlyCatalog, planFallback } from "./fallback-catalog.js";
import { skillResources } from "./resources.js";
import { currentDateLine, substituteArguments } from "./substitute.js";
import { type ActivationToolNames, resolveActivationToolNames } from "./tool-names.js";

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
  /**
   * The host's own tool names, known before the first plan (each `plan({ tools })` adds its
   * own). Activation tools never take one of these names, and a call to one of them is never
   * read as an activation, also when replaying a history.
   */
  tools?: readonly string[];
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
  /** The tool names when no host tool is in the way (most hosts): shared by every session. */
  names: ActivationToolNames;
  /** Skills the model may be offered: not `disable-model-invocation`, not roles. */
  offerable: Skill[];
  offerableNames: Set<string>;
  /** Their names, in list order. */
  offerableList: string[];
  /** `skill_<name>` specs by skill and tool name. */
  specs: Map<string, ToolSpec>;
  /** Skills a "/name" that names none most likely meant, by what was typed. */
  closest: Map<string, string[]>;
  /** Skills the user may run by "/name" (computed on first use). */
  invocable?: Skill[];
  /** `offerable` minus the active skills, by the active skills' names. */
  available: Map<string, Skill[]>;
  /** `activate_skill` specs by tool name, active skills and top candidates (and the catalog's names). */
  activateSpecs: Map<string, { listed: readonly string[] | undefined; spec: ToolSpec | undefined }>;
  /** Tool policies by alias map and active skills. */
  policies: WeakMap<ToolAliases, Map<string, SharedPolicy>>;
}

/** A tool policy shared by the sessions with the same active skills, with its answers per host tool list. */
interface SharedPolicy {
  policy: ToolPolicy;
  skills: Skill[];
  /** Allowed tools and `unknown-tool` warnings, by the host's tool list. */
  byTools: Map<string, { allowed: string[]; unknown: Diagnostic[] }>;
}

const NO_ALIASES: ToolAliases = Object.freeze({});

/** Small caches shared by every session over a list: cleared when full, never unbounded. */
const VIEW_CACHE_SIZE = 64;

function remember<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= VIEW_CACHE_SIZE) map.clear();
  map.set(key, value);
  return value;
}

/**
 * Rendered `<skill_content>` blocks by skill and arguments, shared by every session: a
 * stateless host rebuilds the session at every step, and a long body is not re-substituted
 * each time. A loaded skill object never changes (a new version is a new object), and a block
 * depends only on it, its arguments and its folder's files.
 */
const blocks = new WeakMap<Skill, Map<string, string>>();

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
    const tools = createToolNameIndex(list);
    view = {
      list,
      tools,
      names: resolveActivationToolNames(tools),
      offerable,
      offerableNames: new Set(offerable.map((s) => s.name)),
      offerableList: offerable.map((s) => s.name),
      specs: new Map(),
      closest: new Map(),
      available: new Map(),
      activateSpecs: new Map(),
      policies: new WeakMap(),
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

/** The skills a typed "/name" that resolves to none most likely meant (cached per list). */
function closestNames(view: SkillsView, typed: string): string[] {
  let names = view.closest.get(typed);
  if (!names) {
    view.invocable ??= view.list.filter((s) => s.userInvocable);
    names = closestSkillNames(typed, view.invocable);
    if (view.closest.size >= 256) view.closest.clear();
    view.closest.set(typed, names);
  }
  return names;
}

/** Could a host tool of this name be mistaken for one of ours? (Then names must be resolved per host.) */
function mayClash(tool: string): boolean {
  return tool.startsWith(SKILL_TOOL_PREFIX) || ACTIVATE_SKILL_TOOL_NAMES.includes(tool);
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
  let policyCache: ({ list: readonly Skill[]; key: string } & SharedPolicy) | undefined;
  let catalogCache:
    | {
        key: string;
        list: readonly Skill[];
        text: string;
        names: readonly string[] | undefined;
        problem?: Diagnostic;
      }
    | undefined;
  /** Why stage 1 or the catalog could not run for the current turn (kept for its later steps). */
  let matchProblem: Diagnostic | undefined;
  /** The note a refused "/name" leaves for its turn, and the message and list it was made for. */
  let note: { message: string; list: readonly Skill[]; text: string | undefined } | undefined;

  // The host's tools, so activation tools never take one of their names. Names this session
  // offered itself are never learned as host tools: some hosts hand a step's whole tool set,
  // ours included, back as "the tools" of the next step.
  const hostTools = new Set<string>();
  let clashing = false;
  let hostVersion = 0;
  const offered = new Set<string>();
  const learnHostTools = (tools: readonly string[]) => {
    for (const tool of tools) {
      if (hostTools.has(tool) || offered.has(tool)) continue;
      hostTools.add(tool);
      hostVersion++;
      if (mayClash(tool)) clashing = true;
    }
  };
  learnHostTools(options.tools ?? []);
  let namesCache: { list: readonly Skill[]; version: number; names: ActivationToolNames } | undefined;

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

  /** The activation tool names in this host: the shared ones unless a host tool is in the way. */
  const toolNames = (): ActivationToolNames => {
    const v = skillsView();
    if (!clashing) return v.names;
    if (namesCache?.list !== v.list || namesCache.version !== hostVersion) {
      namesCache = {
        list: v.list,
        version: hostVersion,
        names: resolveActivationToolNames(
          v.tools,
          hostTools,
          (name) => v.offerableNames.has(name),
          (name) => source.get(name)?.file,
        ),
      };
    }
    return namesCache.names;
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

  const policy = (): SharedPolicy => {
    const v = skillsView();
    const key = activeKey();
    if (!policyCache || policyCache.list !== v.list || policyCache.key !== key) {
      const aliasMap = aliases ?? NO_ALIASES;
      let byKey = v.policies.get(aliasMap);
      if (!byKey) {
        byKey = new Map();
        v.policies.set(aliasMap, byKey);
      }
      let shared = byKey.get(key);
      if (!shared) {
        const skills = activeSkills();
        shared = { skills, policy: createToolPolicy(skills, { toolAliases: aliases }), byTools: new Map() };
        if (byKey.size >= VIEW_CACHE_SIZE) byKey.clear();
        byKey.set(key, shared);
      }
      policyCache = { list: v.list, key, ...shared };
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

  const renderBlock = (skill: Skill, entry: ActiveSkill): string => {
    let byArgs = blocks.get(skill);
    if (!byArgs) {
      byArgs = new Map();
      blocks.set(skill, byArgs);
    }
    const args = entry.args ?? "";
    let block = byArgs.get(args);
    if (block === undefined) {
      if (byArgs.size >= 16) byArgs.clear();
      block = buildBlock(skill, entry);
      byArgs.set(args, block);
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

  // The active skills' section and the whole system text are rebuilt only when what they are
  // made of changes: most steps of a turn plan the same thing, and each would otherwise copy
  // tens of kilobytes of text.
  let sectionCache: { list: readonly Skill[]; key: string; text: string } | undefined;
  let systemCache: { parts: readonly string[]; text: string } | undefined;

  const activeSection = (now: Date, allowed: string[] | undefined): string => {
    if (state.active.length === 0) return "";
    const skillList = skillsView().list;
    const key = `${currentDateLine(now, options.timeZone)}\u0001${allowed ? allowed.join("\u0000") : "\u0002"}\u0001${state.active
      .map((a) => `${a.name}\u0000${a.args ?? ""}`)
      .join("\u0001")}`;
    if (sectionCache?.list !== skillList || sectionCache.key !== key) {
      sectionCache = { list: skillList, key, text: renderActiveSection(now, allowed) };
    }
    return sectionCache.text;
  };

  const systemText = (parts: string[]): string => {
    const cached = systemCache;
    if (
      cached &&
      cached.parts.length === parts.length &&
      parts.every((part, i) => part === cached.parts[i])
    ) {
      return cached.text;
    }
    const text = parts.filter((part) => part !== "").join("\n\n");
    systemCache = { parts, text };
    return text;
  };

  // Of the host's tools, those allowed and the whitelist entries that match none of them:
  // the same for every step (and session) that passes the same tools under the same active skills.
  const toolsUnder = (shared: SharedPolicy, tools: readonly string[]) => {
    const key = tools.join("\u0000");
    let answer = shared.byTools.get(key);
    if (!answer) {
      const p = shared.policy;
      answer = { allowed: p.allowedTools(tools), unknown: p.restricted ? p.unknownTools(tools) : [] };
      if (shared.byTools.size >= 16) shared.byTools.clear();
      shared.byTools.set(key, answer);
    }
    return answer;
  };

  const renderActiveSection = (now: Date, allowed: string[] | undefined): string => {
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
    error_type: Refusal["error_type"],
    message: string,
  ): ActivationResult => {
    emit({ type: "activation-refused", at: clock().toISOString(), skill, by, error_type });
    return { status: "error", error_type, message };
  };

  /**
   * Whether `by` may activate this skill at all, whatever the state (ALREADY_ACTIVE and
   * GROUP_CONFLICT depend on the state and are decided by activateInternal). Pure: plan()
   * also asks it again for a command it already refused, to keep the turn's note.
   */
  const refusalOf = (
    skill: Skill | undefined,
    requested: string,
    by: ActiveSkill["by"],
    args: string | undefined,
  ): Pick<Refusal, "error_type" | "message"> | undefined => {
    const command = `/${requested}${args ? ` ${args}` : ""}`;
    if (!skill) {
      if (by === "user") {
        const close = closestNames(skillsView(), requested);
        const userSkills = skillsView().list.filter((s) => s.userInvocable);
        const offer =
          close.length > 0
            ? `the closest skills are ${close.map((n) => `/${n}`).join(", ")} (they can type one of them)`
            : `the skills they can run are ${list(userSkills.map((s) => `/${s.name}`))}`;
        return {
          error_type: "NOT_FOUND",
          message: `The user typed "${command}", but there is no skill named "${requested}", so nothing was loaded. Tell the user the command did not run and that ${offer}. If "/${requested}" was not meant as a skill command, answer the message as usual.`,
        };
      }
      return {
        error_type: "NOT_FOUND",
        message:
          `There is no skill named "${requested}". Skills you can activate: ${list(skillsView().offerableList)}. ` +
          "Use one of these exact names, or continue without a skill.",
      };
    }
    const name = skill.name;
    if (by === "model" && skill.role) {
      return {
        error_type: "MODEL_INVOCATION_DISABLED",
        message: `"${name}" is a sub-agent role, not a skill to activate here. Delegate the task to it with the delegation tool if one is offered; otherwise continue without it.`,
      };
    }
    if (by === "model" && skill.disableModelInvocation) {
      return {
        error_type: "MODEL_INVOCATION_DISABLED",
        message: `Skill "${name}" runs only when the user asks for it. Do not start it or do its task yourself; if it seems needed, tell the user they can run it by typing /${name}${skill.argumentHint ? ` ${skill.argumentHint}` : ""}.`,
      };
    }
    if (by === "user" && !skill.userInvocable) {
      if (skill.role) {
        return {
          error_type: "NOT_USER_INVOCABLE",
          message: `The user typed "${command}", but "${name}" is a sub-agent role, not a skill, so nothing was loaded here. If a delegation tool is offered, delegate the request to the "${name}" role with it${
            args ? ` (the task: "${args}", with the context it needs)` : ""
          }; otherwise tell the user that "${name}" runs only as a sub-agent and cannot be started with a command here.`,
        };
      }
      return {
        error_type: "NOT_USER_INVOCABLE",
        message: `The user typed "${command}", but skill "${name}" cannot be started by a command (it is used automatically when a request matches it), so nothing was loaded. Tell the user the command did not run; if the rest of the message is a request, handle it as an ordinary one.`,
      };
    }
    return undefined;
  };

  const success = (skill: Skill, entry: ActiveSkill, message: string): ActivationResult => {
    // A replay (sessionFromHistory) only needs the state: the model read this result long ago.
    if (silent > 0) {
      return {
        status: "success",
        data: { name: skill.name, instructions: "", allowedTools: null, resources: [] },
        message,
      };
    }
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
    const refusal = refusalOf(skill, requested, by, args);
    if (refusal || !skill) {
      const { error_type, message } = refusal!; // a missing skill is always refused
      return refuse(skill?.name ?? requested, by, error_type, message);
    }
    const name = skill.name;
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
    names: ActivationToolNames,
  ): ToolSpec[] => {
    const specs: ToolSpec[] = [];
    for (const skill of top) {
      const tool = names.toolName(skill.name);
      if (tool === undefined) continue; // every form of its name is a host tool: activate_skill still offers it
      const specKey = `${skill.name}\u0000${tool}`;
      let spec = v.specs.get(specKey);
      if (!spec) {
        spec = skillToolSpec(skill, tool);
        v.specs.set(specKey, spec);
      }
      specs.push(spec);
    }
    if (names.generic === undefined) return specs;
    // Shared by every session over the list; `listed` (the catalog's names, itself cached per
    // catalog) is compared by identity rather than joined into the key.
    const key = `${names.generic}\u0001${activeKey()}\u0001${top.map((s) => s.name).join("\u0000")}`;
    let cached = v.activateSpecs.get(key);
    if (!cached || cached.listed !== listed) {
      const skip = new Set(top.map((s) => s.name));
      const enumNames = listed
        ? listed.filter((name) => !skip.has(name) && !isActive(name) && v.offerableNames.has(name))
        : v.offerableList.filter((name) => !skip.has(name) && !isActive(name));
      cached = remember(v.activateSpecs, key, {
        listed,
        spec: activateSkillToolSpec(enumNames, names.generic),
      });
    }
    if (cached.spec) specs.push(cached.spec);
    return specs;
  };

  /** The skills the model may activate now: offerable and not active (one array per active set, shared). */
  const availableSkills = (v: SkillsView): Skill[] => {
    if (state.active.length === 0) return v.offerable;
    const key = activeKey();
    return (
      v.available.get(key) ??
      remember(
        v.available,
        key,
        v.offerable.filter((s) => !isActive(s.name)),
      )
    );
  };

  const catalogFor = (
    v: SkillsView,
    candidates: readonly Candidate[],
  ): { text: string; names: readonly string[] | undefined; problem?: Diagnostic } => {
    if (!options.catalog) return { text: "", names: undefined };
    const key = `${activeKey()}\u0001${candidates.map((c) => c.name).join("\u0000")}`;
    if (!catalogCache || catalogCache.list !== v.list || catalogCache.key !== key) {
      const active = state.active.map((a) => a.name);
      const skills = availableSkills(v);
      let built: { text: string; names?: readonly string[] | undefined; problem?: Diagnostic };
      try {
        built =
          skills.length > 0 ? options.catalog({ skills, candidates, list: v.list, active }) : { text: "" };
      } catch (error) {
        // A throwing tokenizer (or any catalog bug) must not take the host's turn down.
        built = { ...namesOnlyCatalog(skills, candidates), problem: planFallback("catalog", error) };
      }
      catalogCache = { key, list: v.list, text: built.text, names: built.names, problem: built.problem };
    }
    return catalogCache;
  };

  /** The refusal note of a "/name" message, for every step of its turn. */
  const noteFor = (
    message: string,
    v: SkillsView,
    explicit: ActivationResult | undefined,
  ): string | undefined => {
    if (explicit) {
      const text = explicit.status === "error" ? commandNote(message, explicit) : undefined;
      note = { message, list: v.list, text };
      return text;
    }
    if (note?.message === message && note.list === v.list) return note.text;
    // A later step (or a session rebuilt mid-turn): ask again whether the command would be refused.
    let text: string | undefined;
    const invocation = parseExplicitInvocation(message);
    if (invocation) {
      const skill = resolveInvokedSkill(source, invocation.name);
      if (skill ? !isActive(skill.name) : closestNames(v, invocation.name).length > 0) {
        const refusal = refusalOf(skill, invocation.name, "user", invocation.args);
        if (refusal) text = commandNote(message, refusal);
      }
    }
    note = { message, list: v.list, text };
    return text;
  };

  const planTurn = (input: PlanInput): TurnPlan => {
    const now = clock();
    const v = skillsView();
    knownTools = input.tools;
    learnHostTools(input.tools);
    const names = toolNames();
    const message = input.message;
    let explicit: ActivationResult | undefined;
    const fresh = message !== undefined && message !== seenMessage && !input.planned;

    if (message !== undefined) {
      const invocation = parseExplicitInvocation(message);
      const skill = invocation ? resolveInvokedSkill(source, invocation.name) : undefined;
      // "/name" is a command when it names a skill, or nearly does (a typo is refused, with
      // the closest names); any other "/word" is an ordinary message ("/weather in Paris").
      const isCommand =
        invocation !== undefined && (skill !== undefined || closestNames(v, invocation.name).length > 0);
      let commandHandled = false;
      if (invocation && isCommand) {
        // Only a new message runs the command: replanning the same message (the next
        // step of a tool loop) must not run it, or count it, twice.
        if (fresh) explicit = activateInternal(skill?.name ?? invocation.name, "user", invocation.args, true);
        commandHandled = fresh ? explicit?.status === "success" : skill !== undefined && isActive(skill.name);
      }
      if (commandHandled) {
        lastMatch = EMPTY_MATCH;
        matchProblem = undefined;
        matchedMessage = message;
      } else if (fresh || matchedMessage !== message || matchedList !== v.list) {
        matchProblem = undefined;
        try {
          lastMatch =
            options.match && v.offerable.length > 0 ? options.match(v.offerable, message) : EMPTY_MATCH;
        } catch (error) {
          lastMatch = EMPTY_MATCH;
          matchProblem = planFallback("matching", error);
        }
        matchedMessage = message;
        matchedList = v.list;
        if (fresh && !matchProblem) {
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
      noteFor(message, v, explicit);
    }

    const candidates = lastMatch.candidates.filter((c) => v.offerableNames.has(c.name) && !isActive(c.name));
    const top: Skill[] = [];
    for (const c of candidates) {
      if (top.length >= topCount) break;
      const skill = source.get(c.name);
      if (skill) top.push(skill);
    }
    const catalog = catalogFor(v, candidates);
    const activationTools = activationToolsFor(top, v, catalog.names, names);
    for (const tool of activationTools) offered.add(tool.name);

    const shared = policy();
    const p = shared.policy;
    const underPolicy = toolsUnder(shared, input.tools);
    const allowedTools = [...underPolicy.allowed];
    const diagnostics: Diagnostic[] = [...underPolicy.unknown, ...names.diagnostics];
    if (matchProblem) diagnostics.push(matchProblem);
    if (catalog.problem) diagnostics.push(catalog.problem);

    const plan: TurnPlan = {
      system: systemText([
        catalog.text,
        activeSection(now, p.restricted ? allowedTools : undefined),
        note?.text ?? "",
      ]),
      activationTools,
      allowedTools,
      activeToolNames: [...allowedTools, ...activationTools.map((t) => t.name)],
      candidates,
      ambiguous: candidates.length > 1 && lastMatch.ambiguous,
      diagnostics,
    };
    if (explicit) plan.explicit = explicit;
    return plan;
  };

  /** The last resort when planning itself failed: no skills offered, and never wider tool access. */
  const safePlan = (input: PlanInput, error: unknown): TurnPlan => {
    let allowedTools: string[];
    try {
      allowedTools = policy().policy.allowedTools(input.tools);
    } catch {
      // The active skills' whitelists cannot be read: least privilege.
      allowedTools = state.active.length > 0 ? [] : [...input.tools];
    }
    return {
      system: "",
      activationTools: [],
      allowedTools,
      activeToolNames: [...allowedTools],
      candidates: [],
      ambiguous: false,
      diagnostics: [planFallback("plan", error)],
    };
  };

  const session: Session = {
    get state() {
      return state;
    },

    plan(input: PlanInput): TurnPlan {
      try {
        return planTurn(input);
      } catch (error) {
        return safePlan(input, error);
      }
    },

    activate(name, activateOptions = {}) {
      return activateInternal(name, activateOptions.by ?? "code", activateOptions.args);
    },

    deactivate(name) {
      return deactivateInternal(name);
    },

    isActivationTool(toolName) {
      const names = toolNames();
      return names.isGeneric(toolName) || names.skillName(toolName) !== undefined;
    },

    callActivationTool(toolName, input) {
      const names = toolNames();
      const isGeneric = names.isGeneric(toolName);
      const target = isGeneric ? undefined : names.skillName(toolName);
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
