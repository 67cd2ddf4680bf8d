/**
 * The reference: the agent loop every framework runs, written against core alone. A
 * framework's driver must produce the same records as this one, so it is the contract in
 * executable form: one session per model call, the response handed to `respond` before any
 * call runs, skillshelf's tools answered by the session, host tools run through the guard.
 */
import { hostDelegationSpec, runDelegation } from "../adapter-kit/delegation.js";
import { runHostTool, runSkillTool } from "../adapter-kit/tool-calls.js";
import { unknownTool } from "../adapter-kit/unknown-tools.js";
import type { GuardResult, HistoryItem, ToolCall } from "../types.js";
import type {
  ConformanceDriver,
  HostTool,
  ModelView,
  ScriptedModel,
  SeenMessage,
  SeenTool,
} from "./driver.js";
import { tamperedResult } from "./tamper.js";

/** Steps per user message before the loop gives up (a scripted model that never answers). */
export const MAX_STEPS = 12;

function seen(tool: HostTool): SeenTool {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}

export const referenceDriver: ConformanceDriver = {
  name: "reference",
  clientTools: true,
  tamper: true,
  // An approval is between the caller and the framework: the model sees nothing of it, so the
  // reference runs an approved call as any other (what each framework must give after one).
  approvals: true,
  conversation({ shelf, tools, model, system, roleModel, models = {}, files }) {
    const history: HistoryItem[] = [];
    const messages: SeenMessage[] = [];
    const names = tools.map((t) => t.name);
    let counter = 0;

    /** A step's model: the one a skill's `model:` id names, when the host maps it, else the agent's. */
    const modelFor = (id: string | undefined): ScriptedModel => (id !== undefined && models[id]) || model;

    const runSubAgent = async (
      script: ScriptedModel,
      instructions: string,
      task: string,
      allowed: readonly string[],
      guard?: (call: ToolCall) => GuardResult,
    ) => {
      const sub: SeenMessage[] = [{ role: "user", text: task }];
      for (let step = 0; step < MAX_STEPS; step++) {
        const view: ModelView = {
          system: instructions,
          tools: tools.filter((t) => allowed.includes(t.name)).map(seen),
          messages: [...sub],
        };
        const reply = script(view);
        if ("text" in reply) return reply.text;
        sub.push({
          role: "assistant",
          calls: reply.calls.map((c) => ({ name: c.name, input: c.input ?? {} })),
        });
        for (const call of reply.calls) {
          const verdict = guard?.({ name: call.name, input: call.input ?? {} });
          if (verdict && !verdict.allowed) {
            sub.push({ role: "tool", name: call.name, result: verdict.result });
            continue;
          }
          const tool = allowed.includes(call.name) ? tools.find((t) => t.name === call.name) : undefined;
          sub.push({ role: "tool", name: call.name, result: tool ? await tool.run(call.input ?? {}) : null });
        }
      }
      return "";
    };

    return {
      // The history is all this loop keeps, and every step opens its session from it.
      rebuild() {},
      // The history is what a stateless host replays: the edit rewrites the results in it.
      tamper(edit) {
        for (const item of history)
          if (item.kind === "tool-call") item.output = tamperedResult(edit, item.output);
        for (const [i, message] of messages.entries())
          if (message.role === "tool")
            messages[i] = { ...message, result: tamperedResult(edit, message.result) };
      },
      async send(text) {
        await shelf.refresh();
        history.push({ kind: "user", text });
        messages.push({ role: "user", text });
        for (let step = 0; step < MAX_STEPS; step++) {
          const session = await shelf.openSession({ history, tools: names, ...(files && { files }) });
          const plan = session.plan();
          // A user's /name with limits, in a session rebuilt from the history: its record goes
          // into the history before the model answers (the model never reads it).
          const record = session.commandRecord();
          if (record) {
            session.respond([record]);
            history.push({
              kind: "tool-call",
              id: record.id!,
              toolName: record.name,
              input: record.input,
              output: await runSkillTool(session, record),
            });
            continue;
          }
          const allowed = new Set(plan.allowedTools);
          const delegation =
            roleModel && allowed.has("delegate")
              ? [
                  hostDelegationSpec(
                    shelf.roles(),
                    names.filter((n) => n !== "delegate"),
                  ),
                ]
              : [];
          const view: ModelView = {
            system: [system, plan.system].filter((part) => part !== "").join("\n\n"),
            tools: [
              ...tools.filter((t) => allowed.has(t.name) && t.name !== "delegate").map(seen),
              ...delegation,
              ...plan.tools,
            ],
            messages: [...messages],
          };
          const reply = modelFor(plan.model)(view);
          if ("text" in reply) {
            messages.push({ role: "assistant", text: reply.text });
            return;
          }
          const calls: ToolCall[] = reply.calls.map((c) => ({
            id: c.id ?? `call_${++counter}`,
            name: c.name,
            input: c.input ?? {},
          }));
          messages.push({ role: "assistant", calls: calls.map((c) => ({ name: c.name, input: c.input })) });
          session.respond(calls);
          let handedOver = false;
          for (const call of calls) {
            let result: unknown;
            const client = tools.find((t) => t.client && t.name === call.name);
            if (client) {
              // The caller's tool: refused, the model reads why; allowed, the call goes to the caller.
              const verdict = session.guard(call);
              if (verdict.allowed) {
                handedOver = true;
                await client.run((call.input ?? {}) as Record<string, unknown>);
                continue;
              }
              result = verdict.result;
            } else if (session.isSkillTool(call.name)) {
              // A forked skill's sub-agent runs on the agent's model (or its skill's), guarded by core.
              result = await runSkillTool(session, call, {
                fork: (f) => runSubAgent(modelFor(f.model), f.instructions, f.task, f.tools, f.guard),
              });
            } else if (call.name === "delegate" && roleModel) {
              result = await runHostTool(session, call, () =>
                runDelegation(shelf, call.input, {
                  tools: names.filter((n) => n !== "delegate"),
                  run: (d) => runSubAgent(roleModel, d.instructions, d.task, d.tools, d.guard),
                }),
              );
            } else {
              const tool = tools.find((t) => t.name === call.name);
              result = tool
                ? await runHostTool(session, call, () =>
                    tool.run((call.input ?? {}) as Record<string, unknown>),
                  )
                : unknownTool(call.name);
            }
            history.push({
              kind: "tool-call",
              id: call.id,
              toolName: call.name,
              input: call.input,
              output: result,
            });
            messages.push({ role: "tool", name: call.name, result });
          }
          if (handedOver) return; // the run stops for the caller
        }
      },
    };
  },
};
