/**
 * The default event sink: one JSON object per line, appended to a file. Emitting is
 * synchronous and cheap (it only queues); writing happens in batches off the hot path, and
 * a failing disk is reported once as a process warning, never thrown into the host's turn.
 */
import { appendFile, mkdir } from "node:fs/promises";
import path from "node:path";
import type { EventSink, SkillEvent } from "../types.js";

export interface JsonlEventSink extends EventSink {
  readonly file: string;
  /** Resolves once every event emitted so far is on disk (or its write failed). */
  flush(): Promise<void>;
}

export interface JsonlEventSinkOptions {
  /** Called for each failed write; default: one process warning for the first failure. */
  onError?: (error: unknown) => void;
}

export function jsonlEventSink(file: string, options: JsonlEventSinkOptions = {}): JsonlEventSink {
  let pending: string[] = [];
  let chain: Promise<void> = Promise.resolve();
  let scheduled = false;
  let dirReady = false;
  let warned = false;
  const onError =
    options.onError ??
    ((error: unknown) => {
      if (warned) return;
      warned = true;
      process.emitWarning(
        `skillshelf: could not write events to ${file}: ${String(error)}`,
        "SkillshelfWarning",
      );
    });

  const writeBatch = async () => {
    scheduled = false;
    const lines = pending;
    pending = [];
    if (lines.length === 0) return;
    try {
      if (!dirReady) {
        await mkdir(path.dirname(file), { recursive: true });
        dirReady = true;
      }
      await appendFile(file, lines.join(""), "utf8");
    } catch (error) {
      onError(error);
    }
  };

  return {
    file,
    emit(event: SkillEvent) {
      let line: string;
      try {
        line = `${JSON.stringify(event)}\n`;
      } catch (error) {
        onError(error);
        return;
      }
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        chain = chain.then(writeBatch);
      }
    },
    flush: () => chain,
  };
}
