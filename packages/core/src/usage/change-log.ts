/**
 * Which usage records changed since a version, for readers that keep an order derived from
 * them (the catalog): a use changes one record, and re-reading 10,000 to find it was most of
 * an activation turn's catalog cost. Bounded: past `size` changes, or after the records were
 * replaced wholesale (a merge with another process's writes, a reload), it does not know.
 */
export interface UsageChangeLog {
  /** `names` changed, and the store's version is now `version`. */
  note(version: number, names: readonly string[]): void;
  /** Any record may have changed up to `version`. */
  reset(version: number): void;
  /** The names changed after `version`, or undefined when that is not known. */
  since(version: number): readonly string[] | undefined;
}

export function usageChangeLog(size = 256): UsageChangeLog {
  const entries: Array<{ version: number; names: readonly string[] }> = [];
  // Changes at or before this version are not all in `entries`.
  let unknownUpTo = 0;
  return {
    note(version, names) {
      entries.push({ version, names });
      if (entries.length > size) unknownUpTo = Math.max(unknownUpTo, entries.shift()!.version);
    },
    reset(version) {
      entries.length = 0;
      unknownUpTo = version;
    },
    since(version) {
      if (version < unknownUpTo) return undefined;
      const names = new Set<string>();
      for (const entry of entries)
        if (entry.version > version) for (const name of entry.names) names.add(name);
      return [...names];
    },
  };
}
