/**
 * The session a delegated sub-agent runs under: the delegating conversation's (if any),
 * narrowed to what the sub-agent was given, as `forkSession` narrows a fork's. Code its
 * tools call — a host delegation tool under a name core does not exclude, Mastra's role
 * agents — asks `currentSession()` what it may use, and must get the sub-agent's bound:
 * otherwise a read-only role could delegate again to one that writes.
 *
 * Without a conversation only `guard` and `allowedTools` are there: they are all a nested
 * delegation (or a role agent) asks of it.
 */
import type { Session } from "../types.js";
import type { Delegation } from "./delegation.js";

export function delegationScope(
  parent: Session | undefined,
  delegation: Pick<Delegation, "tools" | "guard">,
): Session {
  const given = new Set(delegation.tools);
  const bounded: Pick<Session, "guard" | "allowedTools"> = {
    guard: (call) => delegation.guard(call),
    allowedTools: (tools) =>
      (parent ? parent.allowedTools(tools ?? delegation.tools) : [...(tools ?? delegation.tools)]).filter(
        (t) => given.has(t),
      ),
  };
  return Object.assign(Object.create(parent ?? null) as Session, bounded);
}
