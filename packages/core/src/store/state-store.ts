/**
 * Everything skillshelf remembers besides the skill files themselves: usage, events, kept
 * versions, the decision ledger and improvement proposals. One interface, so an app with
 * several instances can point them all at one shared store (a database) instead of each
 * keeping its own files under `.skillshelf/`.
 *
 * The embedded default is the file store (`createFileStateStore`); `@skillshelf/postgres`
 * implements the same interface on PostgreSQL.
 */
import type { ReadEventsResult } from "../events/read-events.js";
import type { AddResult, HistoryEntry } from "../history/history-store.js";
import type { LedgerReadResult, LedgerRecord, LedgerType } from "../history/ledger.js";
import type { ProposalStore } from "../improve/proposal-store.js";
import type { EventSink } from "../types.js";
import type { UsageStore } from "../usage/store.js";
import type { WorkflowRunStore } from "../workflow/run-store.js";

/** Which events to read back: every given field must match. */
export interface EventQuery {
  session?: string;
  thread?: string;
  run?: string;
  skill?: string;
  /** ISO time: events at or after it. */
  since?: string;
}

/** An event sink that can also be read back (for `stats` and for pulling one conversation out). */
export interface EventStore extends EventSink {
  /** Resolves once every event emitted so far is stored (or its write failed and was reported). */
  flush(): Promise<void>;
  read(query?: EventQuery): Promise<ReadEventsResult>;
}

/** Kept versions of each skill, newest first; the newest of a managed skill is its current content. */
export interface VersionStore {
  list(name: string): Promise<HistoryEntry[]>;
  read(name: string, id: string): Promise<Buffer>;
  /** Records `content` as the newest version unless it already is; keeps at most `keep` entries. */
  add(
    name: string,
    content: string | Uint8Array,
    options: { version: string | undefined; keep: number },
  ): Promise<AddResult>;
  /** Whether a skill has any kept version (it has been written through skillshelf). */
  isManaged(name: string): Promise<boolean>;
  /** Id of the newest kept version. */
  newestId(name: string): Promise<string | undefined>;
}

export type LedgerInput = Omit<LedgerRecord, "at"> & { at?: string };

/** The append-only decision ledger. */
export interface LedgerStore {
  append(record: LedgerInput): Promise<LedgerRecord>;
  read(filter?: { skill?: string; types?: readonly LedgerType[] }): Promise<LedgerReadResult>;
}

/**
 * What a managed write of one skill records through, while the store holds that skill for
 * it. A database runs it as one transaction: the versions and ledger lines it adds are
 * committed together, or not at all when the write fails or the process dies.
 */
export interface SkillWriteScope {
  /**
   * sha256 of the skill's current content as the shared store knows it, read under the
   * hold: the compare-and-swap key across instances. Undefined when the store keeps no
   * state of its own apart from the file (the file store: the file is the truth).
   */
  head(): Promise<string | undefined>;
  readonly history: VersionStore;
  readonly ledger: Pick<LedgerStore, "append">;
}

export interface StateStore {
  /** For messages and diagnostics: `file`, `postgres`, … */
  readonly kind: string;
  readonly usage: UsageStore;
  readonly events: EventStore;
  readonly history: VersionStore;
  readonly ledger: LedgerStore;
  readonly proposals: ProposalStore;
  /** Workflow runs' checkpoints and logs (a store without it: the file store's, under the state folder). */
  readonly workflows?: WorkflowRunStore;
  /**
   * Runs `task` holding skill `name` for writing across every instance sharing the store;
   * a second writer of the same skill waits (or fails with LOCKED). What `task` records
   * through its scope is committed when it returns and dropped when it throws, where the
   * store can do so (a database; files are written as they go, in a crash-safe order).
   */
  writeSkill<T>(name: string, task: (scope: SkillWriteScope) => Promise<T>): Promise<T>;
  /** Sends pending changes and takes in other instances' (usage order); cheap to call often. */
  sync(): Promise<void>;
  /** Sends pending changes (queued events, usage) without closing anything. */
  flush(): Promise<void>;
  /** Flushes and releases what the store holds (connections). The store is unusable after. */
  close(): Promise<void>;
}
