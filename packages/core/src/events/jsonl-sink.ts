/**
 * The default event sink: one JSON object per line, appended to a file. Emitting is
 * synchronous and cheap (it only queues the event); redacting, serialising and writing happen
 * in batches off the hot path, and a failing disk is reported once as a process warning,
 * never thrown into the host's turn.
 * A batch collects what is emitted within `BATCH_DELAY_MS` (or until `flush()`): opening,
 * sizing and closing the file once per event cost more than the rest of a model call.
 *
 * - Whole lines: a batch is written in writes of whole lines (up to `WRITE_CHUNK_BYTES`
 *   each, a longer line alone) on a file opened for appending (O_APPEND), so lines from
 *   several processes never interleave, however large a batch; a write per line was a
 *   thread-pool round trip per event.
 * - Rotation: past `maxBytes` the log moves to `events.1.jsonl` (older ones shift up, at
 *   most `keep` are kept); one process rotates at a time (a lock), and a writer still
 *   holding the old file only appends to the rotated one.
 * - Privacy: user text (a `candidates` event's message, an activation's args, a delegated
 *   task) is stored as a sha256 prefix and the first few characters by default; see
 *   `text`. Each event is redacted as its line is built, so the text is held in memory until
 *   its batch is written and never reaches the file verbatim. The state folder gets a
 *   `.gitignore` so the log is not committed by accident.
 */
import { open, rename, stat } from "node:fs/promises";
import path from "node:path";
import { withFileLock } from "../history/lock.js";
import type { EventSink, SkillEvent } from "../types.js";
import { redactEvent, type TextPolicy } from "./redact.js";
import { ensureStateFolder } from "./state-gitignore.js";

export interface JsonlEventSink extends EventSink {
  readonly file: string;
  /**
   * Queues the event; it is read when its batch is written (within `BATCH_DELAY_MS`, or at
   * `flush()`), so emit an event you no longer change. An event that cannot be serialised is
   * skipped and reported through `onError` then.
   */
  emit(event: SkillEvent): void;
  /** Resolves once every event emitted so far is on disk (or its write failed). */
  flush(): Promise<void>;
}

export interface JsonlEventSinkOptions {
  /** Called for each failed write; default: one process warning for the first failure. */
  onError?: (error: unknown) => void;
  /**
   * How user text is stored: `"prefix"` (default: a sha256 prefix and the first
   * `prefixLength` characters), `"hash"` (the sha256 prefix only) or `"full"` (verbatim).
   */
  text?: TextPolicy;
  /** Characters of user text kept with `text: "prefix"` (default 24). */
  prefixLength?: number;
  /** Rotate when the log would grow past this many bytes (default 10 MiB; 0 = never). */
  maxBytes?: number;
  /** Rotated logs kept (`events.1.jsonl` … `events.<keep>.jsonl`; default 3). */
  keep?: number;
}

export const DEFAULT_EVENT_LOG_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_EVENT_LOG_KEEP = 3;
const BATCH_DELAY_MS = 50;
/** Whole lines per append: small enough for one contiguous O_APPEND write of a regular file. */
const WRITE_CHUNK_BYTES = 64 * 1024;

/** `events.jsonl` → `events.2.jsonl`. */
export function rotatedLogPath(file: string, index: number): string {
  const ext = path.extname(file);
  return `${file.slice(0, file.length - ext.length)}.${index}${ext}`;
}

export function jsonlEventSink(file: string, options: JsonlEventSinkOptions = {}): JsonlEventSink {
  let pending: SkillEvent[] = [];
  let chain: Promise<void> = Promise.resolve();
  let scheduled = false;
  let timer: NodeJS.Timeout | undefined;
  let warned = false;
  const maxBytes = options.maxBytes ?? DEFAULT_EVENT_LOG_MAX_BYTES;
  const keep = Math.max(1, options.keep ?? DEFAULT_EVENT_LOG_KEEP);
  const policy = { text: options.text ?? "prefix", prefixLength: options.prefixLength ?? 24 } as const;
  const report =
    options.onError ??
    ((error: unknown) => {
      if (warned) return;
      warned = true;
      process.emitWarning(
        `skillshelf: could not write events to ${file}: ${String(error)}`,
        "SkillshelfWarning",
      );
    });
  // Reports come from the batch, not the emitting call: a throwing handler must not stop the
  // batches after it.
  const onError = (error: unknown) => {
    try {
      report(error);
    } catch {}
  };

  const sizeOf = async (target: string) => (await stat(target).catch(() => undefined))?.size ?? 0;

  /** Whether appending `bytes` would take a non-empty log past the limit. */
  const full = async (bytes: number) => {
    const size = await sizeOf(file);
    return size > 0 && size + bytes > maxBytes;
  };
  const rotate = (bytes: number) =>
    withFileLock(file, async () => {
      // Another process may have rotated while we waited for the lock.
      if (!(await full(bytes))) return;
      for (let i = keep - 1; i >= 1; i--) {
        await rename(rotatedLogPath(file, i), rotatedLogPath(file, i + 1)).catch(() => {});
      }
      await rename(file, rotatedLogPath(file, 1));
    });

  const startBatch = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    chain = chain.then(writeBatch);
  };

  /** The batch's lines, redacted; an event that cannot be serialised is reported and left out. */
  const linesOf = (events: readonly SkillEvent[]): string[] => {
    const lines: string[] = [];
    for (const event of events) {
      try {
        lines.push(`${JSON.stringify(redactEvent(event, policy))}\n`);
      } catch (error) {
        onError(error);
      }
    }
    return lines;
  };

  const writeBatch = async () => {
    scheduled = false;
    const events = pending;
    pending = [];
    if (events.length === 0) return;
    const lines = linesOf(events);
    if (lines.length === 0) return;
    try {
      ensureStateFolder(path.dirname(file));
      const sizes = lines.map((line) => Buffer.byteLength(line));
      const bytes = sizes.reduce((sum, size) => sum + size, 0);
      if (maxBytes > 0 && (await full(bytes))) await rotate(bytes);
      const handle = await open(file, "a");
      try {
        let chunk = "";
        let chunkBytes = 0;
        for (let i = 0; i < lines.length; i++) {
          const size = sizes[i] as number;
          if (chunkBytes > 0 && chunkBytes + size > WRITE_CHUNK_BYTES) {
            await handle.write(chunk);
            chunk = "";
            chunkBytes = 0;
          }
          chunk += lines[i];
          chunkBytes += size;
        }
        if (chunkBytes > 0) await handle.write(chunk);
      } finally {
        await handle.close();
      }
    } catch (error) {
      onError(error);
    }
  };

  return {
    file,
    emit(event: SkillEvent) {
      pending.push(event);
      if (!scheduled) {
        scheduled = true;
        // Not unref'd: a process that emits and ends still writes its last events.
        timer = setTimeout(startBatch, BATCH_DELAY_MS);
      }
    },
    flush: () => {
      if (timer) startBatch();
      return chain;
    },
  };
}
