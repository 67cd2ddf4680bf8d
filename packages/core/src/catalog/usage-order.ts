/**
 * The catalog's order of the skills that are not candidates: last used first (a skill never
 * used counts from when it was first seen), then by use count, then by name.
 *
 * Cached per skill list and usage store. When the store's `version()` moves, most often one
 * skill was just used: the store names what changed (`changedSince`; otherwise every record
 * is compared with the one the order was made from) and only those skills are taken out and
 * put back in their place (binary search, the same comparison as the full sort, so the
 * result is the one a sort would give).
 * Re-sorting every skill after each activation was most of an activation turn's cost at
 * 1,000 skills (a use bumps the version every time). Many changes at once (another process's
 * uses merged in, the first marking as seen) still sort from scratch.
 */
import type { Skill } from "../types.js";
import { recency, type UsageRecord, type UsageStore } from "../usage/store.js";

interface Key {
  recency: number;
  count: number;
}

interface Order {
  usage: UsageStore | undefined;
  version: number;
  order: Skill[];
  keys: Map<Skill, Key>;
  /** Each skill's record when its key was computed, to see which changed since. */
  records: Map<Skill, UsageRecord | undefined>;
}

const orders = new WeakMap<readonly Skill[], Order>();

/** Up to this many changed records are moved one by one; more are sorted from scratch. */
const MOVE_LIMIT = 64;

function compare(keys: Map<Skill, Key>, a: Skill, b: Skill): number {
  return compareKeys(keys.get(a) as Key, a, keys.get(b) as Key, b);
}

function compareKeys(ka: Key, a: Skill, kb: Key, b: Skill): number {
  if (ka.recency !== kb.recency) return kb.recency - ka.recency;
  if (ka.count !== kb.count) return kb.count - ka.count;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function sameRecord(a: UsageRecord | undefined, b: UsageRecord | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.count === b.count && a.lastUsed === b.lastUsed && a.firstSeen === b.firstSeen;
}

/**
 * `visible` (the model-invocable skills of `skills`) by usage. Without a store every skill is
 * equally new: by name. The returned array is shared: do not change it.
 */
export function usageOrder(
  skills: readonly Skill[],
  visible: readonly Skill[],
  byName: ReadonlyMap<string, Skill>,
  usage: UsageStore | undefined,
  now: number,
): readonly Skill[] {
  const version = usage ? usage.version?.() : -1;
  const cached = orders.get(skills);
  if (cached && cached.usage === usage && version !== undefined && cached.version === version)
    return cached.order;

  // What the store says changed: the records of those skills only.
  const named = cached && cached.usage === usage ? usage?.changedSince?.(cached.version) : undefined;
  let records: Map<Skill, UsageRecord | undefined>;
  const changed: Skill[] = [];
  if (cached && named) {
    records = cached.records;
    for (const name of named) {
      const skill = byName.get(name);
      if (!skill) continue;
      const record = usage?.get(name);
      if (sameRecord(record, records.get(skill))) continue;
      records.set(skill, record);
      changed.push(skill);
    }
  } else {
    records = new Map();
    for (const skill of visible) records.set(skill, usage?.get(skill.name));
    if (cached && cached.usage === usage) {
      for (const skill of visible) {
        if (!sameRecord(records.get(skill), cached.records.get(skill))) changed.push(skill);
        if (changed.length > MOVE_LIMIT) break;
      }
    }
  }

  if (cached && cached.usage === usage && version !== undefined) {
    if (changed.length === 0) {
      orders.set(skills, { ...cached, version, records });
      return cached.order;
    }
    if (changed.length <= MOVE_LIMIT) {
      // Taken out by position (a copy, then one search per moved skill), not by filtering every
      // skill through a set: the filter was most of an activation turn's catalog at 1,000 skills.
      const order = cached.order.slice();
      for (const skill of changed) {
        const at = order.indexOf(skill);
        if (at >= 0) order.splice(at, 1);
      }
      const keys = cached.keys;
      for (const skill of changed) {
        const record = records.get(skill);
        keys.set(skill, { recency: recency(record, now), count: record?.count ?? 0 });
        let low = 0;
        let high = order.length;
        while (low < high) {
          const mid = (low + high) >>> 1;
          if (compare(keys, order[mid]!, skill) < 0) low = mid + 1;
          else high = mid;
        }
        order.splice(low, 0, skill);
      }
      orders.set(skills, { usage, version, order, keys, records });
      return order;
    }
  }

  if (named) {
    // Too many to move: every record afresh.
    records = new Map();
    for (const skill of visible) records.set(skill, usage?.get(skill.name));
  }
  // Each skill with its key beside it: the sort compares fields, not two map lookups per
  // comparison (the first catalog of a cold start sorts every visible skill).
  const keys = new Map<Skill, Key>();
  const keyed: Array<{ skill: Skill; key: Key }> = new Array(visible.length);
  // Already in order, most often: on a first start every skill is as new as the others, and a
  // shelf's list is sorted by name. Seen in this same pass (the sort is stable, so adjacent
  // pairs in order mean the sort would change nothing).
  let inOrder = true;
  for (let i = 0; i < visible.length; i++) {
    const skill = visible[i] as Skill;
    const record = records.get(skill);
    const key = { recency: recency(record, now), count: record?.count ?? 0 };
    keys.set(skill, key);
    keyed[i] = { skill, key };
    if (inOrder && i > 0) {
      const before = keyed[i - 1] as { skill: Skill; key: Key };
      inOrder = compareKeys(before.key, before.skill, key, skill) <= 0;
    }
  }
  if (!inOrder) keyed.sort((a, b) => compareKeys(a.key, a.skill, b.key, b.skill));
  const order = keyed.map((k) => k.skill);
  if (version !== undefined) orders.set(skills, { usage, version, order, keys, records });
  return order;
}
