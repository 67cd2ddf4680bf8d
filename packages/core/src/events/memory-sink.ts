import type { EventSink, SkillEvent } from "../types.js";

export interface MemoryEventSink extends EventSink {
  /** Every event emitted so far, oldest first. */
  readonly events: SkillEvent[];
  clear(): void;
}

/** Keeps events in an array: for tests, and for hosts that ship events elsewhere themselves. */
export function memoryEventSink(): MemoryEventSink {
  const events: SkillEvent[] = [];
  return {
    events,
    emit: (event) => {
      events.push(event);
    },
    clear: () => {
      events.length = 0;
    },
  };
}
