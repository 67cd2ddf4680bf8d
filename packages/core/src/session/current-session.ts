/**
 * The session a host tool runs under. Adapters run every guarded tool inside it, so code
 * that a tool calls — the delegation tool starting a sub-agent — can ask which skills limit
 * the conversation without each framework passing it along.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Session } from "../types.js";

const running = new AsyncLocalStorage<Session>();

export function runInSession<T>(session: Session, fn: () => T): T {
  return running.run(session, fn);
}

/** The session of the tool call being run, if any. */
export function currentSession(): Session | undefined {
  return running.getStore();
}
