/**
 * The guard of a role agent built ahead and run by the host itself (LangChain's
 * `createRoleAgent`), not started by a delegation. Such an agent is the model too, so its
 * calls are judged as a delegated sub-agent's are: a tool its role was not given is refused
 * (host middleware may bring more tools than the role's), and every other call is judged by
 * the conversation it runs under (the host ran it from a guarded tool), else by a session
 * with nothing active, which is the shelf's write protection.
 */
import { currentSession } from "../session/current-session.js";
import type { GuardResult, Role, Session, ToolCall } from "../types.js";
import { subAgentGuard } from "./sub-agent-guard.js";

export function roleAgentGuard(
  role: Role,
  tools: readonly string[],
  openJudge: () => Pick<Session, "guard">,
): (call: ToolCall | string) => GuardResult {
  let judge: Pick<Session, "guard"> | undefined;
  return subAgentGuard(role.name, tools, (call) => {
    const parent = currentSession();
    if (parent) return parent.guard(call);
    judge ??= openJudge();
    return judge.guard(call);
  });
}
