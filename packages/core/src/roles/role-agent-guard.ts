/**
 * The guard of a role agent built ahead and run by the host itself (LangChain's
 * `createRoleAgent`), not started by a delegation. Such an agent is the model too, so its
 * calls are judged as a delegated sub-agent's are: a tool its role was not given is refused
 * (host middleware may bring more tools than the role's), and every other call is judged by
 * the conversation it runs under (the host ran it from a guarded tool), else by a session
 * with nothing active, which is the shelf's write protection.
 *
 * Returns the guard for a call made under `parent` (`currentSession()` when the call comes
 * in): fixed per call, so the scope its tool runs in (`delegationScope`) can hand it on to
 * a nested delegation without it looking up the session again. `tools` may be read per call
 * (the role as its file says now), so a role narrowed on disk narrows an agent built before.
 */
import type { GuardResult, Role, Session, ToolCall } from "../types.js";
import { subAgentGuard } from "./sub-agent-guard.js";

export type RoleAgentGuard = (parent: Session | undefined) => (call: ToolCall | string) => GuardResult;

export function roleAgentGuard(
  role: Role,
  tools: readonly string[] | (() => readonly string[]),
  openJudge: () => Pick<Session, "guard">,
): RoleAgentGuard {
  const given = typeof tools === "function" ? tools : () => tools;
  let judge: Pick<Session, "guard"> | undefined;
  const shelfJudge = (call: ToolCall | string) => {
    judge ??= openJudge();
    return judge.guard(call);
  };
  return (parent) => subAgentGuard(role.name, given(), parent ? (call) => parent.guard(call) : shelfJudge);
}
