/**
 * createShelf: the one object a host holds. It only wires the feature modules together;
 * every decision lives in the module that owns it (load/, match/, catalog/, session/,
 * policy/, roles/, history/, improve/).
 */
import path from "node:path";
import type { CountTokens } from "./catalog/tokens.js";
import { createDisabledFilter } from "./config/disabled.js";
import { configuredSources } from "./config/shelf-sources.js";
import type { JsonlEventSinkOptions } from "./events/jsonl-sink.js";
import { createSkillStore } from "./history/lazy-skill-store.js";
import { unloadedSkillFile } from "./history/locate-unloaded.js";
import type { RollbackResult, VersionInfo, WriteOptions, WriteResult } from "./history/writer.js";
import type { GuardLimits } from "./improve/guards.js";
import type { Improvements } from "./improve/improvements.js";
import { createImprovements } from "./improve/lazy-improvements.js";
import { ChangeMonitor } from "./load/change-monitor.js";
import { SkillLoader } from "./load/loader.js";
import { DEFAULT_PREBUILT_FILE, openPrebuiltShelf } from "./load/prebuilt.js";
import { preferredFiles } from "./load/resolve.js";
import { resolveSources } from "./load/sources.js";
import { debounce, FolderWatcher, WATCH_DEBOUNCE_MS } from "./load/watch.js";
import { createMatcher, type MatcherOptions } from "./match/matcher.js";
import type { ToolAliases } from "./policy/aliases.js";
import { defaultToolAliases } from "./policy/aliases.js";
import { builtinRoleSkills } from "./roles/builtin-roles.js";
import {
  type Delegation,
  type DelegationErrorType,
  type DelegationRecord,
  prepareDelegation,
  recordDelegation,
} from "./roles/delegation.js";
import { roleOf, rolesOf } from "./roles/roles.js";
import { currentSession } from "./session/current-session.js";
import { protectedPaths } from "./session/protected-paths.js";
import { createShelfSessions, latestUserText, type OpenSessionOptions } from "./session/shelf-sessions.js";
import type { ScriptOptions, ScriptRequest } from "./skill-files/scripts.js";
import { createFileStateStore } from "./store/file-state-store.js";
import type { StateStore } from "./store/state-store.js";
import { isTrusted, type TrustState } from "./trust/evaluate.js";
import { createTrustGate } from "./trust/gate.js";
import { defaultTrustFile } from "./trust/trust-store.js";
import type {
  BuiltinSkill,
  Diagnostic,
  EventSink,
  Generate,
  MatchOptions,
  MatchResult,
  ParseMode,
  Role,
  Session,
  Skill,
  SkillScope,
  SkillSource,
  ToolResult,
} from "./types.js";
import { skillForReadPath } from "./usage/note-read.js";
import type { UsageStore } from "./usage/store.js";
import type { SessionWorkflows } from "./workflow/activation.js";
import { createFileRunStore } from "./workflow/file-run-store.js";

export interface ShelfOptions {
  /** Project root; project scope = <root>/.skillshelf/skills and <root>/.agents/skills. Default: process.cwd(). */
  root?: string;
  /** Override the project skill folders (absolute or relative to root). */
  projectDirs?: string[];
  /** Override the user skill folders. Default: ~/.skillshelf/skills, ~/.agents/skills. `[]` disables. */
  userDirs?: string[];
  /** Opt in to `.claude/skills` folders (project and user). */
  claude?: boolean;
  /** Code-defined skills (lowest precedence). The default role skills are added unless `builtinRoles: false`. */
  builtins?: BuiltinSkill[];
  builtinRoles?: boolean;
  /**
   * Pin which file wins for a name that several files define (`{ "code-review": "skills/team/code-review" }`,
   * relative to `root`, the SKILL.md or its folder). Never over a role or a locked builtin.
   */
  prefer?: Readonly<Record<string, string>>;
  mode?: ParseMode;
  /**
   * A shelf built ahead of time by `skillshelf build` (a path, relative to root), read instead
   * of parsing every SKILL.md. Default: `<stateDir>/prebuilt-shelf.bin` when it exists;
   * `false` never reads one. The folders are still scanned: a file changed since the build is
   * read from its source, and a prebuilt skill is checked against its file before it is activated.
   */
  prebuilt?: string | false;
  /**
   * How refresh() learns that nothing changed: "watch" (default) trusts a folder watcher when
   * the platform's is immediate (Linux), "stat" stats every skill file on every call.
   */
  refreshCheck?: "watch" | "stat";
  /** Where skillshelf keeps its own state (usage, history, improvements, events). Default <root>/.skillshelf. */
  stateDir?: string;
  /** Event sink; default a JSONL file under stateDir (`<stateDir>/events.jsonl`). `false` disables. */
  events?: EventSink | false;
  /** The default JSONL log: how user text is kept (default a hash and a short prefix), rotation size and count. */
  eventLog?: Omit<JsonlEventSinkOptions, "onError">;
  /** Map whitelist names (Claude Code's `Read`, `Bash(git:*)`) to this host's tool names or globs. */
  toolAliases?: ToolAliases;
  /** Stage-1 matching: thresholds, margin, an optional `embed` function (see createMatcher). */
  matcher?: MatcherOptions;
  /**
   * How long an activated skill lasts: "task" (default: until the model or the user ends it,
   * or a new request is about something else), "turn" (until the next user message),
   * "session" (until the model or the user ends it). See the README, "A skill's scope".
   */
  scope?: SkillScope;
  /**
   * Refuse guarded tool calls whose arguments point into a skill folder or the state folder
   * (default true): a model must not edit its own whitelist. Tools in `readTools` may read there.
   */
  protectSkillFiles?: boolean;
  /**
   * Host tools that only read files: they may read skill files, and reading a SKILL.md counts
   * as using that skill. Default: the common read/search/list tool names (read_file, grep, …).
   */
  readTools?: readonly string[];
  /** The catalog the model sees: token budget (default 4,000), per-entry cap (default 250 characters), exact tokenizer. */
  catalog?: { budgetTokens?: number; entryCap?: number; countTokens?: CountTokens };
  /** Where usage (last used, count, first seen) is kept. Default: the store's (`<stateDir>/usage.json`). */
  usage?: UsageStore;
  /**
   * Where usage, events, kept versions, the ledger and proposals live. Default: files under
   * stateDir. Instances of one app share state by sharing a store (e.g. `@skillshelf/postgres`);
   * the shelf flushes it on close() but does not close it.
   */
  store?: StateStore;
  /** Managed writes: earlier versions kept per skill (default 10); how long to wait for another writer's lock (ms, default 10 000). */
  history?: { keep?: number; lockWait?: number };
  /** The model the improvement loop uses (analyses, fallback merges); each adapter provides one. */
  generate?: Generate;
  /** Improvement-loop limits: guard thresholds, proposals kept per analysis (default 3). */
  improve?: { limits?: Partial<GuardLimits>; maxProposals?: number };
  /**
   * The trust gate for project skills (default off): `true` or `{ file }` withholds every
   * project skill whose folder the user has not trusted (`skillshelf trust`) from the model.
   * Turn it on for an agent that works in repositories it did not write; an app whose root
   * holds its own bundled skills can leave it off. See the README, "Trusting project skills".
   */
  trust?: boolean | { file?: string; home?: string };
  /** Let the model run active skills' `scripts/` entries, each run approved by `approve` (default off). */
  scripts?: ScriptOptions;
  /**
   * Run workflow skills (`steps:`) when the model activates one (default off): each step on
   * `generate` (or a function/tool the host registers), checkpointed in the store. See the
   * README, "Workflow skills".
   */
  workflows?: SessionWorkflows;
  /** Offer skills whose `allowed-tools` admit none of the host's tools (default false). */
  offerWithoutTools?: boolean;
  /**
   * The settings file: `disabled` (skills turned off) and `packageSkills`. Default
   * `<root>/.skillshelf/config.json` (none there is fine); `false` reads none. See the README,
   * "Turning a skill off".
   */
  config?: string | false;
  /** Skills turned off in code, besides the config file's `disabled`: loaded and listed, never offered or activatable. */
  disabled?: readonly string[];
  /**
   * Also load the skills the project's npm dependencies ship (`"skillshelf": { "skills": "skills" }`
   * in their package.json), as project skills after the project's folders. Default: the config
   * file's `packageSkills`, else off. Read when the shelf is created.
   */
  packageSkills?: boolean;
}

export interface RefreshOptions {
  /** Stat every skill file and folder even when the shelf's watcher saw no change. */
  full?: boolean;
}

export interface RefreshResult {
  /** Something on disk moved: a file was read, added or removed (skills() or diagnostics() may differ). */
  changed: boolean;
  /** Names of resolved skills that appeared, were replaced by another version, or went away. */
  added: string[];
  updated: string[];
  removed: string[];
  diagnostics: Diagnostic[];
}

export interface Shelf extends SkillSource {
  readonly options: Readonly<ShelfOptions>;

  // ── loading ──
  skills(): readonly Skill[];
  get(name: string): Skill | undefined;
  diagnostics(): readonly Diagnostic[];
  /** Turned off by the disable list (or by a config file that cannot be read): listed, served to nothing. */
  isDisabled(skill: Skill): boolean;
  /**
   * Picks up what changed on disk since the last call. By default, on Linux, the shelf watches
   * its folders (inotify) and a call with no change in between costs two event-loop turns.
   * For what inotify misses (another machine writing to a network file system) every file is
   * stat'ed in the background every 2 s, and what that finds is served by the next call: a
   * missed edit is seen by every call made 4 s or more after it. A call stats every file itself
   * on the first two calls, when the watcher saw something or could not watch a folder, when no
   * background walk completed in the last 4 s, with `{ full: true }`, with `refreshCheck:
   * "stat"`, and on other platforms. Changes the watcher sees are seen by the next call.
   */
  refresh(options?: RefreshOptions): Promise<RefreshResult>;
  /** Opt-in file watching; refresh() stays the source of truth. Returns a stop function. */
  watch(onChange?: (result: RefreshResult) => void): () => void;

  // ── runtime ──
  match(message: string, options?: MatchOptions): MatchResult;
  roles(): Role[];
  role(name: string): Role | undefined;
  /**
   * Check a delegation tool call (`{ role, task }`) and resolve the sub-agent: its role, the
   * host tools it may use (of `tools`), its instructions and model. Emits a `delegated` event.
   */
  prepareDelegation(input: unknown, tools: readonly string[]): ToolResult<Delegation, DelegationErrorType>;
  /**
   * Record a delegation the host ran itself, without `prepareDelegation` (e.g. Mastra's
   * `agents: {…}`): emits the same `delegated` event, so usage and stats count it.
   */
  recordDelegation(delegation: DelegationRecord): void;
  /**
   * The session for one model call: from a checkpointed `state`, or rebuilt from `history`,
   * with the latest user message (`history`'s, or `message`) and the host's `tools`.
   */
  session(options?: OpenSessionOptions): Session;
  /** The same, after computing the message's embedding signal when the matcher has `embed`. */
  openSession(options?: OpenSessionOptions): Promise<Session>;
  noteRead(path: string): void;
  /** A project skill's trust state when the trust gate is on (undefined otherwise, and for other scopes). */
  trustOf(name: string): TrustState | undefined;

  // ── versioned writes and improvement ──
  /** Managed write: validated, locked, compare-and-swap on `expectedHash` (else CONFLICT), old version kept, version bumped, atomic. */
  write(name: string, content: string, options: WriteOptions): Promise<WriteResult>;
  /** Kept versions, newest (the current file) first. */
  history(name: string): Promise<VersionInfo[]>;
  /** One version's text: `current` (default), a history id or prefix, `~N`, a version, a sha256 prefix. */
  read(name: string, versionId?: string): Promise<string>;
  /** Unified diff from version `a` to `b` (default: current); `context` lines around changes (default 3). */
  diff(name: string, a: string, b?: string, options?: { context?: number }): Promise<string>;
  /** Restores a kept version as a new managed write (itself undoable). */
  rollback(name: string, versionId: string, options?: { expectedHash?: string }): Promise<RollbackResult>;
  /** The user-confirmed improvement loop: analyze, list, get, preview, accept, reject, recordPositive. */
  readonly improvements: Improvements;

  close(): Promise<void>;
}

/** Tools that only read: the read, search and list names of the default aliases. */
const DEFAULT_READ_TOOLS: readonly string[] = [
  ...new Set(
    (["Read", "Grep", "Glob", "LS"] as const).flatMap((key) => {
      const value = defaultToolAliases[key];
      return typeof value === "string" ? [value] : [...(value ?? [])];
    }),
  ),
];

/**
 * Creates a shelf and loads it: when the promise resolves, skills() and diagnostics() are
 * current. Call refresh() before each turn (cheap when nothing changed), or watch().
 */
export async function createShelf(options: ShelfOptions = {}): Promise<Shelf> {
  const configured = await configuredSources(options);
  const sources = resolveSources(configured.sourceOptions);
  const prebuiltFile =
    options.prebuilt === false
      ? undefined
      : path.resolve(
          options.root ?? process.cwd(),
          options.prebuilt ?? path.join(options.stateDir ?? ".skillshelf", DEFAULT_PREBUILT_FILE),
        );
  const prebuilt =
    prebuiltFile === undefined
      ? undefined
      : openPrebuiltShelf({
          file: prebuiltFile,
          root: path.resolve(options.root ?? process.cwd()),
          sources,
          mode: options.mode ?? "lenient",
          explicit: options.prebuilt !== undefined,
        });
  const loader = new SkillLoader({
    sources,
    prebuilt: prebuilt?.source,
    notes: prebuilt?.diagnostics,
    // The default roles are builtins too: lowest precedence, so a project or user skill of the same name replaces one.
    builtins: [...(options.builtins ?? []), ...(options.builtinRoles === false ? [] : builtinRoleSkills())],
    mode: options.mode ?? "lenient",
    ...(options.prefer && {
      prefer: preferredFiles(options.prefer, path.resolve(options.root ?? process.cwd())),
    }),
  });
  await loader.load();
  // Project skills reach sessions, roles and matching only through the gate when it is on.
  const trustFile =
    options.trust === undefined || options.trust === false
      ? undefined
      : ((typeof options.trust === "object" ? options.trust.file : undefined) ??
        defaultTrustFile(typeof options.trust === "object" ? options.trust.home : undefined));
  const gate = trustFile === undefined ? undefined : createTrustGate({ skills: loader, file: trustFile });
  await gate?.refresh();
  // A disabled skill is loaded and listed, and served to nothing.
  const disabled = createDisabledFilter({
    skills: gate?.source ?? loader,
    file: configured.file,
    names: options.disabled,
  });
  await disabled.refresh();
  const served = disabled.source;
  // Under the gate a script is run only as trusted: its folder is judged again right before
  // the host is asked (a script edited since the last refresh is not run on an old trust).
  const userScripts = options.scripts;
  const scripts =
    userScripts && gate
      ? {
          ...userScripts,
          approve: async (request: ScriptRequest) => {
            await gate.refresh();
            const skill = loader.get(request.skill);
            if (!skill || !isTrusted(gate.stateOf(skill))) return false;
            return userScripts.approve(request);
          },
        }
      : userScripts;

  // ── loading: one shared watcher for every watch() caller ──
  const listeners = new Set<(result: RefreshResult) => void>();
  let watcher: FolderWatcher | undefined;
  const monitor = new ChangeMonitor({
    folders: () => (loader.watchable() ? loader.watchedFolders() : undefined),
    expected: (into) => loader.expectedStates(into),
    enabled: options.refreshCheck !== "stat" && process.platform === "linux",
  });
  // The loader's folder layout the watches were last given.
  let watchedLayout = loader.layout;
  const syncWatches = () => {
    watchedLayout = loader.layout;
    watcher?.sync(loader.watchedFolders());
    monitor.sync();
  };
  // The request-path walk under way: a call that finds nothing moved still waits for it, or
  // it would answer before an edit that walk is reading is served.
  let walking: Promise<unknown> | undefined;
  const refresh = async (refreshOptions: RefreshOptions = {}): Promise<RefreshResult> => {
    if (!refreshOptions.full && !(await monitor.mustCheck())) {
      if (walking) await walking;
      // The folders did not move, but the user may have trusted one since (another process).
      const trustChanged = gate ? await gate.refresh({ onlyIfTrustFileChanged: true }) : false;
      const configChanged = await disabled.refresh();
      return trustChanged || configChanged ? { ...nothingChanged(), changed: true } : nothingChanged();
    }
    monitor.checking();
    const run = reload();
    const settled = run.then(
      () => undefined,
      // A walk that failed vouches for nothing: the next refresh() walks again.
      () => monitor.failed(),
    );
    walking = settled;
    try {
      return await run;
    } finally {
      if (walking === settled) walking = undefined;
    }
  };
  const reload = async (): Promise<RefreshResult> => {
    const result = await loader.refresh();
    if (gate && (await gate.refresh())) result.changed = true;
    if (await disabled.refresh()) result.changed = true;
    if (result.changed || loader.layout !== watchedLayout) syncWatches();
    // Hand edits are history too: a managed skill changed outside write() is kept on record.
    for (const name of result.updated) {
      await store.recordExternalChange(name, loader.get(name)?.hash).catch(() => undefined);
    }
    return result;
  };
  const refreshFromWatcher = debounce(() => {
    refresh({ full: true }).then(
      (result) => {
        if (result.changed) for (const listener of listeners) listener(result);
      },
      () => undefined, // the loader never rejects on bad files; nothing else to report here
    );
  }, WATCH_DEBOUNCE_MS);
  const stopWatching = () => {
    refreshFromWatcher.cancel();
    watcher?.close();
    watcher = undefined;
  };

  // ── runtime: one matcher and one usage store, shared by match() and every session ──
  const stateDir = path.resolve(options.root ?? process.cwd(), options.stateDir ?? ".skillshelf");
  const matcher = createMatcher(options.matcher);
  const state = options.store ?? createFileStateStore({ dir: stateDir, eventLog: options.eventLog });
  const usage = options.usage ?? state.usage;
  const root = path.resolve(options.root ?? process.cwd());
  const readTools = new Set(options.readTools ?? DEFAULT_READ_TOOLS);
  const noteRead = (filePath: string) => {
    const skill = skillForReadPath(loader.skills(), filePath, root);
    if (!skill) return;
    const at = new Date();
    sessions.recordUse(skill.name, at); // records in the usage store and reorders cached catalogs
    sessions.events?.emit({ type: "skill-read", at: at.toISOString(), skill: skill.name, path: skill.file });
  };
  const sessions = createShelfSessions({
    skills: served,
    scripts,
    workflows: options.workflows && {
      ...options.workflows,
      generate: options.workflows.generate ?? options.generate,
      store: options.workflows.store ?? state.workflows ?? createFileRunStore(stateDir),
    },
    // The trust gate answers first: an untrusted skill is refused as untrusted even when disabled.
    withheld: (name, by) => gate?.withheld(name, by) ?? disabled.withheld(name),
    offerWithoutTools: options.offerWithoutTools,
    matcher,
    embeds: Boolean(options.matcher?.embed),
    usage,
    events: options.events ?? state.events,
    stateDir,
    toolAliases: options.toolAliases,
    scope: options.scope,
    protect:
      options.protectSkillFiles === false
        ? false
        : protectedPaths(
            // Beside the folders, the files that decide what reaches the model: trust, settings, a prebuilt shelf.
            [
              ...sources.map((s) => s.dir),
              stateDir,
              ...[trustFile, configured.file, prebuiltFile].filter(isText),
            ],
            root,
          ),
    isReadTool: (tool) => readTools.has(tool),
    noteRead,
    ...options.catalog,
  });

  // ── versioned writes and improvement ──
  const store = createSkillStore({
    source: loader,
    stateDir,
    state,
    keep: options.history?.keep,
    lock: { wait: options.history?.lockWait },
    mode: options.mode ?? "lenient",
    // A SKILL.md that no longer loads can still be rolled back.
    locate: (name) => unloadedSkillFile(loader.diagnostics(), name),
    events: sessions.events,
    // get(name) serves the new version at once; only the written file is read again, so a
    // write costs the same on a shelf of 10 skills or 10,000.
    afterWrite: async (written) => {
      const result = await loader.refreshFile(written.file);
      await gate?.refresh(); // a project skill's new version is judged before it is served
      if (result.added.length + result.removed.length > 0 || loader.layout !== watchedLayout) syncWatches();
      for (const name of result.updated) {
        await store.recordExternalChange(name, loader.get(name)?.hash).catch(() => undefined);
      }
    },
  });
  const improvements = createImprovements({
    source: loader,
    store,
    stateDir,
    proposals: state.proposals,
    generate: options.generate,
    limits: options.improve?.limits,
    maxProposals: options.improve?.maxProposals,
  });

  return {
    options: Object.freeze({ ...options }),

    // ── loading ──
    skills: () => loader.skills(),
    get: (name) => loader.get(name),
    diagnostics: () => {
      // The loader's own array when nothing is added: callers may compare it by identity.
      const more = [...(gate?.diagnostics() ?? []), ...disabled.diagnostics()];
      return more.length === 0 ? loader.diagnostics() : [...loader.diagnostics(), ...more];
    },
    isDisabled: (skill) => disabled.isDisabled(skill),
    refresh,
    watch(onChange) {
      const listener = onChange ?? (() => undefined);
      listeners.add(listener);
      if (!watcher) {
        watcher = new FolderWatcher(refreshFromWatcher);
        watcher.sync(loader.watchedFolders());
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stopWatching();
      };
    },

    // ── runtime ──
    match: (message, matchOptions) => matcher.match(served.skills(), message, { ...matchOptions, usage }),
    roles: () => rolesOf(served),
    role: (name) => roleOf(served, name),
    prepareDelegation: (input, tools) =>
      prepareDelegation(input, {
        roles: rolesOf(served),
        tools,
        toolAliases: options.toolAliases,
        events: sessions.events,
        // A sub-agent started under an active skill never gets a tool its parent could not use.
        parent: currentSession(),
        // Started outside a conversation, its calls still meet the write protection (a
        // session with nothing active, opened on the sub-agent's first call).
        judge: lazySession(() => sessions.session({ tools })),
      }),
    session: (open) => sessions.session(open),
    async openSession(open = {}) {
      // Other instances' uses reorder the catalog here (a shared store; files: nothing to do).
      await state.sync().catch(() => undefined);
      await sessions.prepare(open.message ?? latestUserText(open.history));
      return sessions.session(open);
    },
    recordDelegation: (delegation) => recordDelegation(delegation, sessions.events),
    noteRead,
    trustOf: (name) => {
      const skill = loader.get(name);
      return skill && gate ? gate.stateOf(skill) : undefined;
    },

    // ── versioned writes and improvement ──
    write: (name, content, writeOptions) => store.write(name, content, writeOptions),
    history: (name) => store.versions(name),
    read: (name, versionId) => store.read(name, versionId),
    diff: (name, a, b, diffOptions) => store.diff(name, a, b, diffOptions),
    rollback: (name, versionId, rollbackOptions) => store.rollback(name, versionId, rollbackOptions),
    improvements,

    async close() {
      listeners.clear();
      stopWatching();
      monitor.close();
      await sessions.flush(); // events still queued reach the log
      await state.flush().catch(() => undefined);
    },
  };
}

function nothingChanged(): RefreshResult {
  return { changed: false, added: [], updated: [], removed: [], diagnostics: [] };
}

function isText(value: string | undefined): value is string {
  return typeof value === "string";
}

function lazySession(open: () => Session): Pick<Session, "guard"> {
  let session: Session | undefined;
  return {
    guard: (call) => {
      session ??= open();
      return session.guard(call);
    },
  };
}
