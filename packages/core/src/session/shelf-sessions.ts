/**
 * How a shelf opens sessions: its stage-1 matcher, its budgeted catalog, its usage store,
 * its event sink and its protections, wired once and shared by every session it opens.
 */
import path from "node:path";
import { buildCatalog } from "../catalog/catalog.js";
import type { CountTokens } from "../catalog/tokens.js";
import { jsonlEventSink } from "../events/jsonl-sink.js";
import type { Matcher } from "../match/matcher.js";
import type { ToolAliases } from "../policy/aliases.js";
import type {
  EventIds,
  EventSink,
  HistoryItem,
  MatchResult,
  Session,
  SessionState,
  Skill,
  SkillScope,
  SkillSource,
} from "../types.js";
import type { UsageStore } from "../usage/store.js";
import type { ProtectedPaths } from "./protected-paths.js";
import {
  createSession,
  offerableSkills,
  type SessionCatalog,
  type SessionMatcher,
  type SessionOptions,
} from "./session.js";

export const EVENTS_FILE = "events.jsonl";
const CATALOG_CACHE_SIZE = 64;
const MATCH_CACHE_SIZE = 64;

export interface ShelfSessionsOptions {
  skills: SkillSource;
  matcher: Matcher;
  /** The matcher has an `embed` function: `prepare()` runs the semantic signal ahead of a plan. */
  embeds?: boolean;
  usage?: UsageStore;
  /** The sink; `undefined` = JSONL under `stateDir`; `false` = none. */
  events?: EventSink | false;
  /** Where the default JSONL event log goes (`<stateDir>/events.jsonl`). */
  stateDir: string;
  toolAliases?: ToolAliases;
  topCandidates?: number;
  scope?: SkillScope;
  protect?: ProtectedPaths | false;
  isReadTool?: (tool: string) => boolean;
  noteRead?: (path: string) => void;
  /** Catalog budget in tokens (default 4,000) and per-entry cap in characters (default 250). */
  budgetTokens?: number;
  entryCap?: number;
  countTokens?: CountTokens;
  timeZone?: string;
  now?: () => Date;
  scripts?: SessionOptions["scripts"];
  workflows?: SessionOptions["workflows"];
  withheld?: SessionOptions["withheld"];
  offerWithoutTools?: boolean;
}

/** What a host opens a session with: one per model call. */
export interface OpenSessionOptions {
  /** The checkpointed state (LangGraph, a Mastra thread, your store). Without it, the state is rebuilt from `history`. */
  state?: SessionState;
  /** The conversation so far, the latest user message included (user messages and every tool call with its output). */
  history?: readonly HistoryItem[];
  /** The latest user message, when you pass no history. */
  message?: string;
  /** The host's tool names: skill tools never take one, and allowed tools are named from them. */
  tools?: readonly string[];
  /**
   * Files the host knows this conversation touches (opened, edited), relative to the project:
   * a skill with `paths` is a candidate only when one of them, or a path the message
   * mentions, matches its globs.
   */
  files?: readonly string[];
  /** Merged over the shelf's aliases, key by key. */
  toolAliases?: ToolAliases;
  /** How many top candidates get their own `skill_<name>` tool (default 3). */
  topCandidates?: number;
  /** Time zone for the date given to active skills (default: the runtime's). */
  timeZone?: string;
  /** The host's thread and run ids (and a session id of its own), stamped on every event the session emits. */
  ids?: EventIds;
}

export interface ShelfSessions {
  session(open?: OpenSessionOptions): Session;
  /** The embedding signal for a message, computed ahead (no-op without `embed`). */
  prepare(message: string | undefined): Promise<void>;
  /** The sink every session emits to (undefined when events are off). */
  readonly events: EventSink | undefined;
  /** Record a use that happened outside a session, so cached catalogs reorder. */
  recordUse(name: string, at?: Date): void;
  /** Wait until every event emitted so far is written. */
  flush(): Promise<void>;
}

/** The latest user message of a history. */
export function latestUserText(history: readonly HistoryItem[] | undefined): string | undefined {
  if (!history) return undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i];
    if (item?.kind === "user" && typeof item.text === "string") return item.text;
  }
  return undefined;
}

export function createShelfSessions(options: ShelfSessionsOptions): ShelfSessions {
  const events =
    options.events === false
      ? undefined
      : (options.events ?? jsonlEventSink(path.join(options.stateDir, EVENTS_FILE)));
  const { matcher, usage } = options;

  // Catalogs are shared by every session of the shelf: most turns repeat a candidate set
  // (often the empty one). A catalog changes with the skill list, the skills left out, the
  // candidates and the usage order; uses recorded by sessions bump `usageVersion`.
  let usageVersion = 0;
  const recorder = usage && {
    record(name: string, at: Date) {
      usage.record(name, at);
      usageVersion++;
    },
  };
  const catalogs = new Map<
    string,
    { text: string; names: readonly string[] | undefined; namesOfSkills: boolean }
  >();
  let catalogList: readonly Skill[] | undefined;
  const catalog: SessionCatalog = ({ skills, candidates, list, active, offerable }) => {
    if (list !== catalogList) {
      catalogs.clear();
      catalogList = list;
    }
    const key = `${usageVersion}\u0001${active.join("\u0000")}\u0001${candidates.map((c) => c.name).join("\u0000")}`;
    let built = catalogs.get(key);
    if (built === undefined) {
      const result = buildCatalog({
        // The offerable list without the active ones, not a copy per set of active skills.
        ...(offerable ? { skills: offerable, exclude: active } : { skills }),
        candidates,
        usage,
        budgetTokens: options.budgetTokens,
        entryCap: options.entryCap,
        countTokens: options.countTokens,
        now: options.now?.(),
      });
      // Name every listed skill in activate_skill's enum only when the catalog had to leave some out.
      built = {
        text: result.text,
        names: result.omitted > 0 ? result.entries.map((e) => e.name) : undefined,
        // Its entries are skills it was given: the offerable ones less those left out (and
        // the candidates, which the session took from the usable skills).
        namesOfSkills: true,
      };
      if (catalogs.size >= CATALOG_CACHE_SIZE) catalogs.delete(catalogs.keys().next().value!);
    } else catalogs.delete(key); // re-insert below: most recently used last
    catalogs.set(key, built);
    return built;
  };

  // Stage 1 per message, shared by every session: each model call of a turn plans the same
  // message. A result holds while the skill list stays the same, and, when usage broke a tie
  // in it (the matcher read a record), while the usage records do: most results never read
  // one. The answer is a function of the skills, the message and the records alone, whichever
  // session asks (one kept for a run, one opened per model call, one in another process).
  // `semantic`: computed by prepare() with the embedding signal (a plain match is replaced by it).
  const matches = new Map<string, { result: MatchResult; usageAt: string | undefined; semantic: boolean }>();
  let matchList: readonly Skill[] | undefined;
  const usageNow = () => `${usageVersion}:${usage?.version?.() ?? ""}`;
  const current = (skills: readonly Skill[]) => {
    if (skills !== matchList) {
      matches.clear();
      matchList = skills;
    }
  };
  const cachedMatch = (message: string) => {
    const cached = matches.get(message);
    if (!cached) return undefined;
    return cached.usageAt === undefined || cached.usageAt === usageNow() ? cached : undefined;
  };
  const remember = (message: string, result: MatchResult, probe: UsageProbe, semantic: boolean) => {
    if (matches.size >= MATCH_CACHE_SIZE) matches.delete(matches.keys().next().value!);
    matches.set(message, { result, usageAt: probe.read() ? usageNow() : undefined, semantic });
    return result;
  };
  const match: SessionMatcher = (skills, message) => {
    current(skills);
    const cached = cachedMatch(message);
    if (cached) return cached.result;
    const probe = usageProbe(usage);
    return remember(message, matcher.match(skills, message, { usage: probe.store }), probe, false);
  };

  const base: Omit<SessionOptions, "state"> = {
    skills: options.skills,
    match,
    catalog,
    usage: recorder,
    events,
    toolAliases: options.toolAliases,
    topCandidates: options.topCandidates,
    scope: options.scope,
    protect: options.protect,
    isReadTool: options.isReadTool,
    noteRead: options.noteRead,
    timeZone: options.timeZone,
    now: options.now,
    scripts: options.scripts,
    workflows: options.workflows,
    withheld: options.withheld,
    offerWithoutTools: options.offerWithoutTools,
  };
  // One merged alias map per override object: a host passes the same object on every call,
  // and compiled whitelists are cached per alias map.
  const mergedAliases = new WeakMap<ToolAliases, ToolAliases>();
  const aliasesWith = (extra: ToolAliases): ToolAliases => {
    let merged = mergedAliases.get(extra);
    if (!merged) {
      merged = { ...base.toolAliases, ...extra };
      mergedAliases.set(extra, merged);
    }
    return merged;
  };

  return {
    events,
    recordUse: (name, at = new Date()) => recorder?.record(name, at),
    session(open = {}) {
      const sessionOptions: SessionOptions = { ...base };
      if (open.state !== undefined) sessionOptions.state = open.state;
      if (open.history !== undefined) sessionOptions.history = open.history;
      if (open.message !== undefined) sessionOptions.message = open.message;
      if (open.tools !== undefined) sessionOptions.tools = open.tools;
      if (open.files !== undefined) sessionOptions.files = open.files;
      if (open.toolAliases) sessionOptions.toolAliases = aliasesWith(open.toolAliases);
      if (open.topCandidates !== undefined) sessionOptions.topCandidates = open.topCandidates;
      if (open.timeZone !== undefined) sessionOptions.timeZone = open.timeZone;
      if (open.ids !== undefined) sessionOptions.ids = open.ids;
      return createSession(sessionOptions);
    },
    async prepare(message) {
      if (!options.embeds || message === undefined) return;
      const skills = offerableSkills(options.skills.skills());
      current(skills);
      if (cachedMatch(message)?.semantic || skills.length === 0) return;
      const probe = usageProbe(usage);
      const result = await matcher.matchAsync(skills, message, { usage: probe.store });
      current(skills);
      remember(message, result, probe, true);
    },
    flush: async () => {
      const flushable = events as { flush?: () => Promise<void> } | undefined;
      await flushable?.flush?.();
    },
  };
}

interface UsageProbe {
  store: UsageStore | undefined;
  /** Whether the matcher read a record (usage broke a tie): then the result holds only for those records. */
  read(): boolean;
}

/** The same store, noting whether it is read (a store may be a class: delegate, do not spread). */
function usageProbe(usage: UsageStore | undefined): UsageProbe {
  if (!usage) return { store: undefined, read: () => false };
  let read = false;
  return {
    store: {
      get: (name) => {
        read = true;
        return usage.get(name);
      },
      all: () => {
        read = true;
        return usage.all();
      },
      record: (name, at) => usage.record(name, at),
      seen: (names, at) => usage.seen(names, at),
    },
    read: () => read,
  };
}
