export { type JsonlEventSink, type JsonlEventSinkOptions, jsonlEventSink } from "./jsonl-sink.js";
export { type MemoryEventSink, memoryEventSink } from "./memory-sink.js";
export { parseEvents, type ReadEventsResult, readEvents } from "./read-events.js";
export {
  type EventSummary,
  type SkillUsageSummary,
  type SummarizeOptions,
  summarizeEvents,
} from "./summarize.js";
