/**
 * Kept versions of each skill: `<dir>/<name>/<id>.md`, each the exact bytes of one
 * version, written atomically (so a crash never leaves a partial entry under a visible
 * name). The newest entry of a managed skill is its current content: that is how a change
 * made outside a managed write is recognised (the file no longer matches it) and why the
 * version before a hand edit is never lost.
 *
 * id = `<UTC time>_<version>_<short sha256>`, e.g. `2025-06-01T12-00-00-123Z_1.0.3_ab12cd34`:
 * sortable by time (times are made strictly increasing per skill), readable, and
 * self-checking (the short hash must match the content).
 */
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { VersionStore } from "../store/state-store.js";
import { type AtomicFs, atomicWrite, removeStaleTempFiles } from "./atomic-write.js";
import { SkillWriteError } from "./errors.js";
import { SHORT_HASH_LENGTH, sha256, shortHash } from "./hash.js";

export interface HistoryEntry {
  id: string;
  name: string;
  /** ISO time the version was recorded. */
  at: string;
  /** The version the content declares, as written ("none" in the id when it declares none). */
  version: string | undefined;
  /** sha256 of the content. */
  hash: string;
  size: number;
  /** Path of the kept copy. */
  path: string;
  /** False when the content no longer matches the hash in its id (edited or damaged on disk). */
  intact: boolean;
}

export interface AddResult {
  entry: HistoryEntry;
  /** False when the newest entry already had this content (nothing written). */
  added: boolean;
  /** Ids removed because more than `keep` entries were kept. */
  pruned: string[];
  /** The newest entry before this call (undefined for a skill with no kept versions). */
  previous: HistoryEntry | undefined;
}

/** The file form of a version store: one folder of `<time>_<version>_<hash8>.md` per skill. */
export interface HistoryStore extends VersionStore {
  readonly dir: string;
  folderFor(name: string): string;
}

const ENTRY = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)_(.+)_([0-9a-f]{8})\.md$/;
const NO_VERSION = "none";

function timeToId(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, "-");
}

function idToTime(stamp: string): number {
  // 2025-06-01T12-00-00-123Z → 2025-06-01T12:00:00.123Z
  const iso = `${stamp.slice(0, 13)}:${stamp.slice(14, 16)}:${stamp.slice(17, 19)}.${stamp.slice(20)}`;
  return Date.parse(iso);
}

function versionToId(version: string | undefined): string {
  if (version === undefined || version.trim() === "") return NO_VERSION;
  return version
    .trim()
    .replace(/[^0-9A-Za-z.+-]/g, "-")
    .slice(0, 40);
}

/**
 * The id a version recorded at `ms` gets (and the version as the id spells it), so every
 * store names versions alike: `<UTC time>_<version>_<short sha256>`.
 */
export function formatVersionId(
  ms: number,
  version: string | undefined,
  hash: string,
): { id: string; version: string | undefined } {
  const idVersion = versionToId(version);
  return {
    id: `${timeToId(ms)}_${idVersion}_${hash.slice(0, SHORT_HASH_LENGTH)}`,
    version: idVersion === NO_VERSION ? undefined : idVersion,
  };
}

export function assertSafeName(name: string): void {
  if (name === "" || name === "." || name === ".." || /[/\\\0]/.test(name)) {
    throw new SkillWriteError("NOT_FOUND", `"${name}" is not a skill name`, { name });
  }
}

export function createHistoryStore(options: { dir: string; fs?: AtomicFs }): HistoryStore {
  const { dir } = options;
  const folderFor = (name: string) => {
    assertSafeName(name);
    return join(dir, name);
  };

  async function entryNames(name: string): Promise<string[]> {
    try {
      const names = await readdir(folderFor(name));
      return names.filter((n) => ENTRY.test(n)).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  }

  async function load(name: string, fileName: string): Promise<HistoryEntry | undefined> {
    const match = ENTRY.exec(fileName)!;
    const path = join(folderFor(name), fileName);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch {
      return undefined; // pruned meanwhile
    }
    const hash = sha256(bytes);
    return {
      id: fileName.slice(0, -".md".length),
      name,
      at: new Date(idToTime(match[1]!)).toISOString(),
      version: match[2] === NO_VERSION ? undefined : match[2],
      hash,
      size: bytes.length,
      path,
      intact: shortHash(hash) === match[3],
    };
  }

  async function list(name: string): Promise<HistoryEntry[]> {
    const entries = await Promise.all((await entryNames(name)).map((n) => load(name, n)));
    return entries.filter((e): e is HistoryEntry => e !== undefined);
  }

  return {
    dir,
    folderFor,
    list,
    async isManaged(name) {
      return (await entryNames(name)).length > 0;
    },
    async newestId(name) {
      return (await entryNames(name))[0]?.slice(0, -".md".length);
    },
    async read(name, id) {
      const names = await entryNames(name);
      const fileName = names.find((n) => n === `${id}.md`);
      if (!fileName)
        throw new SkillWriteError("NOT_FOUND", `no kept version "${id}" of ${name}`, { name, id });
      return readFile(join(folderFor(name), fileName));
    },
    async add(name, content, { version, keep }) {
      const folder = folderFor(name);
      await mkdir(folder, { recursive: true });
      await removeStaleTempFiles(folder);
      const hash = sha256(content);
      let names = await entryNames(name);
      const limit = Math.max(keep, 1);
      const pruned: string[] = [];
      const prune = async (excess: string[]) => {
        for (const old of excess) {
          await rm(join(folder, old), { force: true });
          pruned.push(old.slice(0, -".md".length));
        }
      };
      // Entries past the limit are left only by a prune a crash interrupted: finish it first,
      // so repeated crashes can never pile up more than limit + 1 entries.
      await prune(names.slice(limit));
      names = names.slice(0, limit);
      const newest = names[0] === undefined ? undefined : await load(name, names[0]);
      if (newest?.hash === hash) return { entry: newest, added: false, pruned, previous: newest };

      // Strictly increasing times keep the order right even for two writes in one millisecond.
      const newestTime = names[0] === undefined ? 0 : idToTime(ENTRY.exec(names[0])![1]!);
      const time = Math.max(Date.now(), newestTime + 1);
      const idVersion = versionToId(version);
      const id = `${timeToId(time)}_${idVersion}_${hash.slice(0, SHORT_HASH_LENGTH)}`;
      const path = join(folder, `${id}.md`);
      await atomicWrite(path, content, { fs: options.fs });
      // Prune only after the new entry is safe, so a failure never costs an old version.
      await prune(names.slice(limit - 1));
      const bytes = typeof content === "string" ? Buffer.byteLength(content) : content.length;
      return {
        entry: {
          id,
          name,
          at: new Date(time).toISOString(),
          version: idVersion === NO_VERSION ? undefined : idVersion,
          hash,
          size: bytes,
          path,
          intact: true,
        },
        added: true,
        pruned,
        previous: newest,
      };
    },
  };
}
