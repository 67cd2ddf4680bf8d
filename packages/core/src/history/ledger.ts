/**
 * The append-only decision ledger: one JSON object per line, each with the sha256 of the
 * skill file before and after the decision, so "when did this regression come in?" is a
 * grep. One `write` call per record (O_APPEND): concurrent appenders never interleave
 * within a line, and a crash can at worst lose the record being written, which `read`
 * reports instead of failing on.
 */
import { mkdir, open, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { LedgerStore } from "../store/state-store.js";

export type LedgerType =
  /** A managed write through `write()`. */
  | "write"
  /** A managed write restoring a kept version. */
  | "rollback"
  /** The file changed outside a managed write (a hand edit, or a write interrupted before it was recorded). */
  | "external-edit"
  /** The improvement loop proposed a change (nothing written). */
  | "proposed"
  /** A run was analysed by the improvement loop (`note`: its outcome; nothing written). */
  | "analyzed"
  /** A proposal was accepted and written. */
  | "accepted"
  /** A proposal was rejected (nothing written). */
  | "rejected"
  /** A run that went well, recorded as evidence for the current version (nothing written). */
  | "positive";

export interface LedgerRecord {
  /** ISO timestamp. */
  at: string;
  type: LedgerType;
  skill: string;
  /** sha256 of the skill file before the decision (null when there was no file). */
  before: string | null;
  /** sha256 after it; equal to `before` for decisions that write nothing. */
  after: string | null;
  version?: string;
  /** History id of the version written. */
  versionId?: string;
  /** Rollback target. */
  to?: string;
  proposal?: string;
  reason?: string;
  note?: string;
  /** Body size before/after in estimated tokens (accepted proposals), for growth tracking. */
  tokens?: { before: number; after: number };
  flags?: string[];
}

export interface LedgerReadResult {
  records: LedgerRecord[];
  /** 1-based line numbers that were not valid records (e.g. a record cut short by a crash). */
  malformedLines: number[];
}

/** The file ledger; any `LedgerStore` (a database table) can stand in for it. */
export interface Ledger extends LedgerStore {
  readonly file: string;
}

export function createLedger(file: string): Ledger {
  return {
    file,
    async append(input) {
      const record: LedgerRecord = { ...input, at: input.at ?? new Date().toISOString() };
      await mkdir(dirname(file), { recursive: true });
      const handle = await open(file, "a");
      try {
        await handle.write(`${JSON.stringify(record)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return record;
    },
    async read(filter = {}) {
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return { records: [], malformedLines: [] };
        throw error;
      }
      const records: LedgerRecord[] = [];
      const malformedLines: number[] = [];
      const lines = text.split("\n");
      lines.forEach((line, index) => {
        if (line.trim() === "") return;
        let record: LedgerRecord;
        try {
          record = JSON.parse(line) as LedgerRecord;
        } catch {
          malformedLines.push(index + 1);
          return;
        }
        if (typeof record !== "object" || record === null || typeof record.type !== "string") {
          malformedLines.push(index + 1);
          return;
        }
        if (filter.skill !== undefined && record.skill !== filter.skill) return;
        if (filter.types !== undefined && !filter.types.includes(record.type)) return;
        records.push(record);
      });
      return { records, malformedLines };
    },
  };
}
