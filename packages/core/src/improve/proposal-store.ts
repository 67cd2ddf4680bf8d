/**
 * Proposals on disk (the file state store's): `<dir>/<id>.json`, one record per proposal, written atomically; a
 * status change happens under the record's lock, so two processes cannot both accept (or
 * accept and reject) the same proposal.
 */
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { atomicWrite } from "../history/atomic-write.js";
import { withFileLock } from "../history/lock.js";
import { ImproveError } from "./errors.js";
import type { ImprovementProposal } from "./schema.js";

export interface ProposalStore {
  save(proposal: ImprovementProposal): Promise<void>;
  /** A full id, or a unique prefix or suffix of one. */
  load(idOrPrefix: string): Promise<ImprovementProposal>;
  /** Newest first; unreadable records are skipped (and reported by `problems`). */
  list(): Promise<{ proposals: ImprovementProposal[]; problems: string[] }>;
  /** Runs `task` with the proposal's lock held, on a freshly read record. */
  update<T>(id: string, task: (proposal: ImprovementProposal) => Promise<T>): Promise<T>;
}

export interface FileProposalStore extends ProposalStore {
  readonly dir: string;
}

const RECORD = /^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}\.json$/;

/** `YYYYMMDD-HHMMSS-xxxxxx`: sorts by time, short enough to type, unique enough per second. */
export function newProposalId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const random = Math.floor(Math.random() * 0x1000000)
    .toString(16)
    .padStart(6, "0");
  return `${stamp}-${random}`;
}

export function createProposalStore(dir: string): FileProposalStore {
  const pathOf = (id: string) => join(dir, `${id}.json`);

  async function ids(): Promise<string[]> {
    try {
      return (await readdir(dir))
        .filter((n) => RECORD.test(n))
        .map((n) => n.slice(0, -".json".length))
        .sort()
        .reverse();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  }

  async function read(id: string): Promise<ImprovementProposal> {
    const path = pathOf(id);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch {
      throw new ImproveError("NOT_FOUND", `no improvement proposal "${id}"`, { id });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ImproveError("INVALID_RECORD", `${path} is not valid JSON (${(error as Error).message})`, {
        id,
        path,
      });
    }
    const { parseStoredProposal } = await import("./stored-proposal.js");
    return parseStoredProposal(json, path, id);
  }

  async function resolveId(idOrPrefix: string): Promise<string> {
    const wanted = idOrPrefix.trim();
    const all = await ids();
    if (all.includes(wanted)) return wanted;
    const matches = wanted === "" ? [] : all.filter((id) => id.startsWith(wanted) || id.endsWith(wanted));
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      throw new ImproveError(
        "AMBIGUOUS",
        `"${idOrPrefix}" matches ${matches.length} proposals: ${matches.slice(0, 8).join(", ")}`,
        {
          matches,
        },
      );
    }
    throw new ImproveError("NOT_FOUND", `no improvement proposal "${idOrPrefix}"`, { id: idOrPrefix });
  }

  return {
    dir,
    async save(proposal) {
      await mkdir(dir, { recursive: true });
      await atomicWrite(pathOf(proposal.id), `${JSON.stringify(proposal, null, 2)}\n`);
    },
    async load(idOrPrefix) {
      return read(await resolveId(idOrPrefix));
    },
    async list() {
      const proposals: ImprovementProposal[] = [];
      const problems: string[] = [];
      for (const id of await ids()) {
        try {
          proposals.push(await read(id));
        } catch (error) {
          problems.push((error as Error).message);
        }
      }
      return { proposals, problems };
    },
    async update(idOrPrefix, task) {
      const id = await resolveId(idOrPrefix);
      return withFileLock(pathOf(id), async () => task(await read(id)));
    },
  };
}
