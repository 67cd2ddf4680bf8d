/**
 * The input processor: on every step of a Mastra agent run it asks core for the turn plan
 * and translates it into the step's system messages, tools and `activeTools`. Every skill
 * decision (explicit "/name", matching, catalog, activation, whitelist) is core's.
 */
import type { MastraDBMessage } from "@mastra/core/agent/message-list";
import type { ProcessInputStepArgs, ProcessInputStepResult, Processor } from "@mastra/core/processors";
import {
  type Diagnostic,
  reportOnce,
  type Session,
  type SessionState,
  type Shelf,
  type TurnPlan,
} from "@skillshelf/core";
import { withoutTools } from "./hide-tools.js";
import { readConversation } from "./history.js";
import { activationTool, guardTools } from "./tools.js";

export interface SkillsProcessorOptions {
  /** Processor id, also the tag of its system message and the request-context key it reads. Default "skillshelf". */
  id?: string;
  /** Call `shelf.refresh()` (a cheap change check) before each run. Default true. */
  refresh?: boolean;
  /**
   * Where a caller-carried session state lives in the request context. When the request
   * context holds a SessionState under this key, the run starts from it (instead of
   * rebuilding from the thread) and the key holds the updated state afterwards.
   * Default: the processor id.
   */
  stateKey?: string;
  /** Every plan, for logging or tests. */
  onPlan?: (plan: TurnPlan, step: { stepNumber: number; session: Session }) => void;
  /** Problems worth a human's attention (unknown whitelisted tools, tool-name clashes). Default: console.warn, once each. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/** What the processor keeps for one run (Mastra's per-request processor state). */
interface Run {
  session: Session;
  /** The latest user message, planned with on every step (core runs a "/name" only once). */
  message: string | undefined;
  /** Set when the caller carries state in the request context. */
  save?: () => void;
}

const RUN = Symbol("skillshelf.run");

export function createSkillsProcessor(
  shelf: Shelf,
  options: SkillsProcessorOptions = {},
): Processor<string> & Required<Pick<Processor<string>, "processInputStep">> {
  const id = options.id ?? "skillshelf";
  const stateKey = options.stateKey ?? id;
  const refresh = options.refresh ?? true;
  const report = options.onDiagnostic ?? reportOnce();

  async function startRun(args: ProcessInputStepArgs): Promise<Run> {
    if (refresh) await shelf.refresh();
    const { history, message } = readConversation(args.messages as MastraDBMessage[]);
    // The agent's tools (step 0 has no activation tools yet): a host tool named like an
    // activation tool (`skill_pdf`, `activate_skill`) is then never run or replayed as one.
    const overrides = { tools: Object.keys(args.tools ?? {}) };
    const context = args.requestContext;
    const carried = context?.get(stateKey) as SessionState | undefined;
    if (carried !== undefined) {
      const session = shelf.session(carried, overrides);
      return { session, message, save: () => context?.set(stateKey, session.toJSON()) };
    }
    return { session: shelf.sessionFromHistory(history, overrides), message };
  }

  return {
    id,
    name: "skillshelf skills",
    async processInputStep(args: ProcessInputStepArgs): Promise<ProcessInputStepResult> {
      // Mastra's per-request processor state: the session lives for this run only. A symbol
      // key keeps the live object out of anything Mastra serializes.
      const state = args.state as { [RUN]?: Run };
      let run = state[RUN];
      if (!run) {
        run = await startRun(args);
        state[RUN] = run;
      }
      const tools = args.tools ?? {};
      // A caller's own per-call `activeTools` narrows what core may allow.
      const hostTools = args.activeTools ?? Object.keys(tools);
      const plan = run.session.plan({ message: run.message, tools: hostTools });
      run.save?.();
      options.onPlan?.(plan, { stepNumber: args.stepNumber, session: run.session });
      for (const diagnostic of plan.diagnostics) report(diagnostic);

      // Our system message is tagged so it is replaced, not stacked, on every step and
      // leaves the agent's own instructions (and other processors' messages) untouched.
      args.messageList.clearSystemMessages(id);
      if (plan.system) args.messageList.addSystem(plan.system, id);

      const activation: Record<string, unknown> = {};
      for (const spec of plan.activationTools) {
        activation[spec.name] = activationTool(spec, run.session, () => run.save?.());
      }
      // Host tools a skill hides this step stay active, so a call the model makes anyway reaches
      // the guard (core's TOOL_NOT_ALLOWED, a tool-blocked event), but are not sent to the model.
      const allowed = new Set(plan.allowedTools);
      const hidden = hostTools.filter((name) => !allowed.has(name) && name in tools);
      return {
        tools: { ...guardTools(tools, run.session), ...activation },
        activeTools: [...plan.activeToolNames, ...hidden],
        ...(hidden.length > 0 && args.model ? { model: withoutTools(args.model, hidden) } : {}),
      };
    },
  };
}
