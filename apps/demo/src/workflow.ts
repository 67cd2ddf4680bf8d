/**
 * The demo's workflow skill host (meeting-digest): the host functions its steps run, the check
 * its last step is verified by, the confirmation asked before a run, and each step's progress
 * shown as it happens. The `model` step runs on the demo's model: the offline step model below
 * (rules, like the offline agent model), or the real one with --real-model.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import type { ConfirmRequest, Generate, SessionWorkflows } from "@skillshelf/core";
import type { DemoEventBus } from "./events.js";

/** Who answers "run this workflow?", and what they said. */
export type WorkflowConfirmer = (request: ConfirmRequest) => Promise<{ approve: boolean; by: string }>;

interface Note {
  file: string;
  text: string;
}

/** A meeting note's date and name from its file name (`2026-11-02 standup.md`). */
function meetingOf(file: string): string {
  return file.replace(/\.md$/, "");
}

/** The offline step model: one line per meeting, from the first bullet of each note. */
export const offlineStepModel: Generate = async ({ prompt }) => {
  const notes = /<input name="notes">\n([\s\S]*?)\n<\/input>/.exec(prompt)?.[1];
  if (!notes) return "(the offline step model has no rule for this step)";
  const list = JSON.parse(notes) as Note[];
  return list
    .map((n) => {
      const point = /^-\s+(.+)$/m.exec(n.text)?.[1] ?? "no decisions noted";
      return `${meetingOf(n.file)}: ${point}`;
    })
    .join("\n");
};

export function demoWorkflows(options: {
  bus: DemoEventBus;
  /** The sandbox: the only folder the steps read. */
  root: string;
  confirm: () => WorkflowConfirmer;
  generate: () => Generate;
}): SessionWorkflows {
  const { bus, root } = options;
  return {
    generate: (input) => options.generate()(input),
    confirm: async (request) => {
      bus.emit({
        type: "notice",
        text: `${request.skill} is a workflow: ${request.steps.map((s) => s.title).join(" → ")}. Run it?`,
      });
      const answer = await options
        .confirm()(request)
        .catch(() => ({ approve: false, by: "an error" }));
      bus.emit({ type: "notice", text: `${answer.by}: ${answer.approve ? "yes, run it" : "no"}` });
      return answer.approve;
    },
    functions: {
      collect_notes: async ({ inputs }) => {
        // The folder is the request's (the model's argument): kept inside the sandbox.
        const asked = typeof inputs.args === "string" ? inputs.args.trim() : "";
        const folder = resolve(root, asked !== "" ? asked : "docs");
        if (folder !== root && !folder.startsWith(root + sep))
          throw new Error("the folder is outside the workspace");
        const files = (await readdir(folder)).filter((f) => f.endsWith(".md")).sort();
        return Promise.all(
          files.map(async (file) => ({ file, text: await readFile(join(folder, file), "utf8") })),
        );
      },
      count_meetings: ({ inputs }) => {
        const notes = inputs.notes as Note[];
        const digest = String(inputs.digest);
        return {
          meetings: notes.length,
          named: notes.filter((n) => digest.includes(meetingOf(n.file))).length,
        };
      },
    },
    checks: {
      "names-every-meeting": ({ output }) => {
        const { meetings, named } = output as { meetings: number; named: number };
        return { ok: meetings > 0 && named === meetings, reason: `${named} of ${meetings} meetings named` };
      },
    },
    onProgress: (event) => {
      if (event.type === "step_done") bus.emit({ type: "notice", text: `✓ step ${event.step} done` });
      else if (event.type === "step_retry" || event.type === "step_failed") {
        bus.emit({ type: "notice", text: `✗ step ${event.step}: ${event.reason} (${event.message ?? ""})` });
      }
    },
  };
}
