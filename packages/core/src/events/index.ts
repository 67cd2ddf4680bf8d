export {
  DEFAULT_EVENT_LOG_KEEP,
  DEFAULT_EVENT_LOG_MAX_BYTES,
  type JsonlEventSink,
  type JsonlEventSinkOptions,
  jsonlEventSink,
  rotatedLogPath,
} from "./jsonl-sink.js";
export { type MemoryEventSink, memoryEventSink } from "./memory-sink.js";
export { parseEvents, type ReadEventsResult, readEvents } from "./read-events.js";
export { redactEvent, type TextPolicy } from "./redact.js";
export { ensureStateFolder, STATE_GITIGNORE } from "./state-gitignore.js";
export {
  type EventSummary,
  type SkillUsageSummary,
  type SummarizeOptions,
  summarizeEvents,
} from "./summarize.js";
