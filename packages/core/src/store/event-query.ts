import type { SkillEvent } from "../types.js";
import type { EventQuery } from "./state-store.js";

/** Whether `event` is one of those `query` asks for (every given field must match). */
export function matchesEventQuery(event: SkillEvent, query: EventQuery): boolean {
  if (query.session !== undefined && event.session !== query.session) return false;
  if (query.thread !== undefined && event.thread !== query.thread) return false;
  if (query.run !== undefined && event.run !== query.run) return false;
  if (query.since !== undefined && event.at < query.since) return false;
  if (query.skill !== undefined && !("skill" in event && event.skill === query.skill)) return false;
  return true;
}
