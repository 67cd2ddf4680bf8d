/**
 * The session of the model call a tool call belongs to. `prepareStep` opens one session per
 * step and every tool call of that step's response must be judged by that same object (it
 * has already seen the whole response through `respond`).
 *
 * A tool's `execute` is handed the very `messages` array the step was prepared with, so the
 * session is found by that array first. Failing that (a `prepareStep` of the host's or the
 * SDK rewrote the array), it is the latest step's: the steps of one request run one after
 * another, and `wrap()` is called once per request. A tool run outside `prepareStep` (the
 * guarded tools in another loop) gets a session opened from its own messages.
 */
import type { Session } from "@skillshelf/core";
import type { ModelMessage } from "ai";

export interface StepSessions {
  /** The session `prepareStep` opened for a step whose prompt is any of `messages`. */
  begin(session: Session, ...messages: ReadonlyArray<readonly ModelMessage[] | undefined>): void;
  /** The session for a tool call whose step was prompted with `messages`. */
  of(messages: readonly ModelMessage[]): Session;
  /**
   * The latest step's session (the step whose response the SDK is reading now), before the
   * SDK hands a call to `execute`; undefined before the first step.
   */
  current(): Session | undefined;
}

export function stepSessions(open: (messages: readonly ModelMessage[]) => Session): StepSessions {
  const byMessages = new WeakMap<readonly ModelMessage[], Session>();
  let latest: Session | undefined;
  return {
    begin(session, ...messages) {
      latest = session;
      for (const list of messages) if (list) byMessages.set(list, session);
    },
    current: () => latest,
    of(messages) {
      let session = byMessages.get(messages) ?? latest;
      if (!session) {
        session = open(messages);
        byMessages.set(messages, session);
      }
      return session;
    },
  };
}
