/**
 * The embedded default state store: files under the state folder, exactly as skillshelf has
 * always kept them — `usage.json`, `events.jsonl`, `history/<name>/`, `ledger.jsonl` and
 * `improvements/`. Each part keeps its own crash and concurrency rules (atomic renames,
 * short locks, O_APPEND lines); a managed write's compare-and-swap is on the SKILL.md itself,
 * under its lock, so `writeSkill` adds no hold of its own.
 */
import { join } from "node:path";
import { type JsonlEventSinkOptions, jsonlEventSink } from "../events/jsonl-sink.js";
import { readEvents } from "../events/read-events.js";
import { createHistoryStore, type HistoryStore } from "../history/history-store.js";
import { createLedger, type Ledger } from "../history/ledger.js";
import { createProposalStore, type FileProposalStore } from "../improve/proposal-store.js";
import { createFileUsageStore, type FileUsageStore } from "../usage/file-store.js";
import { createFileRunStore } from "../workflow/file-run-store.js";
import type { WorkflowRunStore } from "../workflow/run-store.js";
import { matchesEventQuery } from "./event-query.js";
import type { EventStore, SkillWriteScope, StateStore } from "./state-store.js";

export const EVENTS_LOG = "events.jsonl";

export interface FileStateStoreOptions {
  /** The state folder, e.g. `<project>/.skillshelf`. */
  dir: string;
  /** The JSONL event log: how user text is kept, rotation. */
  eventLog?: JsonlEventSinkOptions;
  /** Told about a corrupt usage file moved aside or a failed usage write. */
  onUsageError?: (error: Error) => void;
}

export interface FileStateStore extends StateStore {
  readonly kind: "file";
  readonly dir: string;
  readonly usage: FileUsageStore;
  readonly events: EventStore & { readonly file: string };
  readonly history: HistoryStore;
  readonly ledger: Ledger;
  readonly proposals: FileProposalStore;
  /** `workflows/<run_id>.json` checkpoints and `.jsonl` run logs. */
  readonly workflows: WorkflowRunStore;
}

export function createFileStateStore(options: FileStateStoreOptions): FileStateStore {
  const { dir } = options;
  const sink = jsonlEventSink(join(dir, EVENTS_LOG), options.eventLog);
  const events: FileStateStore["events"] = {
    file: sink.file,
    emit: (event) => sink.emit(event),
    flush: () => sink.flush(),
    async read(query = {}) {
      await sink.flush();
      const log = await readEvents(sink.file);
      return { ...log, events: log.events.filter((event) => matchesEventQuery(event, query)) };
    },
  };
  const history = createHistoryStore({ dir: join(dir, "history") });
  const ledger = createLedger(join(dir, "ledger.jsonl"));
  const usage = createFileUsageStore({ dir, onError: options.onUsageError });
  const scope: SkillWriteScope = { head: async () => undefined, history, ledger };
  return {
    kind: "file",
    dir,
    usage,
    events,
    history,
    ledger,
    proposals: createProposalStore(join(dir, "improvements")),
    workflows: createFileRunStore(dir),
    writeSkill: (_name, task) => task(scope),
    // Each process reads usage.json once and merges its uses into it (a second after them):
    // re-reading it per session would cost a parse per model call.
    sync: async () => {},
    flush: () => {
      usage.flush();
      return sink.flush();
    },
    close: () => {
      usage.flush();
      return sink.flush();
    },
  };
}
