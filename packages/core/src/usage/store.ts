import { usageChangeLog } from "./change-log.js";

/**
 * Per-skill usage: when each skill was last used, how often, and when skillshelf first saw
 * it. Stage 1 uses it only to break exact ties; the catalog orders the non-candidate skills
 * by it (seed 002: last used first, a new skill counts as just used so it is not buried).
 *
 * Storage sits behind this small interface so a shared store (a database, a team server)
 * can replace the JSON file later without touching matching or the catalog.
 */
export interface UsageRecord {
  /** Times the skill was used (activated, or its SKILL.md read by the host's file tool). */
  count: number;
  /** ISO timestamp of the last use. */
  lastUsed?: string;
  /** ISO timestamp of the first time the skill was listed: the cold-start stand-in for lastUsed. */
  firstSeen?: string;
}

export interface UsageStore {
  get(name: string): UsageRecord | undefined;
  /** A snapshot, plain JSON. */
  all(): Record<string, UsageRecord>;
  /** One use of `name` (count + 1, lastUsed = at). */
  record(name: string, at?: Date): void;
  /** Mark names as seen; only names never seen before change (firstSeen = at). */
  seen(names: Iterable<string>, at?: Date): void;
  /**
   * Optional: a number that changes whenever any record changes, so readers (the catalog's
   * usage order) can cache what they derive. A store without it is simply re-read each time.
   */
  version?(): number;
  /**
   * Optional: the names whose records changed after `version` (a value `version()` returned),
   * or undefined when the store cannot tell (records replaced wholesale, or too long ago).
   * Readers that derive an order from every record use it to redo only what changed.
   */
  changedSince?(version: number): readonly string[] | undefined;
}

/**
 * When a skill last mattered, for ordering: its last use, or when it was first seen if that
 * is later (a skill never seen counts as seen `now`, so new skills start at the top).
 */
export function recency(record: UsageRecord | undefined, now: number): number {
  if (record === undefined) return now;
  const used = record.lastUsed ? Date.parse(record.lastUsed) : Number.NEGATIVE_INFINITY;
  const seen = record.firstSeen ? Date.parse(record.firstSeen) : Number.NEGATIVE_INFINITY;
  const latest = Math.max(used, seen);
  return Number.isFinite(latest) ? latest : now;
}

/** Apply one use to a record (pure). */
export function withUse(record: UsageRecord | undefined, at: Date, times = 1): UsageRecord {
  const iso = at.toISOString();
  const next: UsageRecord = { count: (record?.count ?? 0) + times, lastUsed: iso };
  if (record?.lastUsed && record.lastUsed > iso) next.lastUsed = record.lastUsed;
  next.firstSeen = record?.firstSeen ?? iso;
  return next;
}

/** Uses recorded here and not yet merged with what the store holds. */
export interface UsageChange {
  uses: number;
  lastUsed?: string;
  firstSeen?: string;
}

/**
 * Merge changes not yet written into records read back from a store (in place): counts add
 * up, the latest use and the earliest first-seen win. One rule for every store, so a file
 * and a database merge the same way.
 */
export function applyUsageChanges(
  records: Map<string, UsageRecord>,
  changes: ReadonlyMap<string, UsageChange>,
): void {
  for (const [name, change] of changes) {
    let record = records.get(name);
    if (change.uses > 0 && change.lastUsed) record = withUse(record, new Date(change.lastUsed), change.uses);
    if (change.firstSeen) {
      record ??= { count: 0 };
      if (!record.firstSeen || record.firstSeen > change.firstSeen) record.firstSeen = change.firstSeen;
    }
    if (record) records.set(name, record);
  }
}

/** A store that lives and dies with the process: tests, stateless hosts, or a base for others. */
export function createMemoryUsageStore(initial: Record<string, UsageRecord> = {}): UsageStore {
  const records = new Map<string, UsageRecord>(Object.entries(initial).map(([k, v]) => [k, { ...v }]));
  let version = 0;
  const changes = usageChangeLog();
  return {
    version: () => version,
    changedSince: (since) => changes.since(since),
    get: (name) => {
      const record = records.get(name);
      return record && { ...record };
    },
    all: () => Object.fromEntries([...records].map(([k, v]) => [k, { ...v }])),
    record(name, at = new Date()) {
      records.set(name, withUse(records.get(name), at));
      version++;
      changes.note(version, [name]);
    },
    seen(names, at = new Date()) {
      const iso = at.toISOString();
      const added: string[] = [];
      for (const name of names) {
        if (records.has(name)) continue;
        records.set(name, { count: 0, firstSeen: iso });
        added.push(name);
      }
      if (added.length > 0) {
        version++;
        changes.note(version, added);
      }
    },
  };
}
