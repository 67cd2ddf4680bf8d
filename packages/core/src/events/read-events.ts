import { readFile } from "node:fs/promises";
import type { SkillEvent } from "../types.js";

export interface ReadEventsResult {
  events: SkillEvent[];
  /** 1-based line numbers that were not a JSON event (a torn write, a hand edit): skipped, not fatal. */
  invalidLines: number[];
}

/** Read a JSONL event log. A missing file is an empty log. */
export async function readEvents(file: string): Promise<ReadEventsResult> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { events: [], invalidLines: [] };
    throw error;
  }
  return parseEvents(text);
}

/** Parse JSONL text into events, skipping (and locating) lines that are not events. */
export function parseEvents(text: string): ReadEventsResult {
  const events: SkillEvent[] = [];
  const invalidLines: number[] = [];
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      const value = JSON.parse(line) as unknown;
      if (
        value &&
        typeof value === "object" &&
        typeof (value as { type?: unknown }).type === "string" &&
        typeof (value as { at?: unknown }).at === "string"
      ) {
        events.push(value as SkillEvent);
        return;
      }
    } catch {
      // fall through: reported as an invalid line
    }
    invalidLines.push(i + 1);
  });
  return { events, invalidLines };
}
