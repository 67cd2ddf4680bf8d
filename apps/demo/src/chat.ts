/**
 * `--chat`: you talk to the team. Requests go to the lead agent; "/skill args" runs a skill
 * yourself; after a turn that used a skill, its run is analysed and any proposal is shown as
 * a card for you to accept or reject (or `--yes` accepts). Reads lines from stdin, so it
 * works typed or piped, and ends on /quit or at the end of the input.
 */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { createColors } from "picocolors";
import type { Demo } from "./demo.js";
import type { DemoEvent } from "./events.js";
import { type Decider, improveSkill, transcriptOf } from "./improve.js";
import { OFFLINE_REPERTOIRE } from "./offline-model/repertoire.js";
import type { Renderer } from "./render.js";
import { tell } from "./story.js";

export interface ChatOptions {
  renderer: Renderer;
  stdin: Readable;
  stdout: Writable & { isTTY?: boolean };
  yes: boolean;
  color: boolean;
}

const HELP = [
  "Type a request for the team, or:",
  "  /<skill> [args]     run a skill yourself (e.g. /batch-rename docs meeting-)",
  "  /done               end the active skill (it also ends with its task, or a new request)",
  "  /skills             the skills and roles on the shelf",
  "  /history <skill>    its kept versions        /rollback <skill>  undo its last change",
  "  /new                start a new conversation /quit              leave",
  "  /help               this help, and the requests the offline model knows",
];

/** The offline model's requests, per skill: anything else gets a plain "outside" answer. */
function repertoireLines(): string[] {
  return [
    "The offline model (rules, not an LLM) knows these requests; others are outside it:",
    ...OFFLINE_REPERTOIRE.flatMap((k) => [`  ${k.skill}`, ...k.examples.map((e) => `    ${e}`)]),
  ];
}

export async function runChat(demo: Demo, options: ChatOptions): Promise<void> {
  const c = createColors(options.color);
  const { renderer } = options;
  const rl = createInterface({ input: options.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (prompt: string): Promise<string | undefined> => {
    renderer.idle();
    options.stdout.write(prompt);
    const next = await lines.next();
    if (next.done) {
      options.stdout.write("\n");
      return undefined;
    }
    if (options.stdout.isTTY !== true) options.stdout.write(`${next.value}\n`); // echo piped input
    return next.value.trim();
  };

  const decide: Decider = async () => {
    if (options.yes) return { accept: true, by: "--yes" };
    for (;;) {
      const answer = (
        await ask(`  ${c.yellow("│")} accept, reject or skip? ${c.dim("[a/r/s]")} `)
      )?.toLowerCase();
      if (answer === undefined || answer === "s" || answer === "skip") return "skip";
      if (answer === "a" || answer === "accept" || answer === "y" || answer === "yes")
        return { accept: true, by: "you" };
      if (answer === "r" || answer === "reject" || answer === "n" || answer === "no") {
        const reason = await ask(`  ${c.yellow("│")} ${c.dim("why not? (kept: not proposed again)")} `);
        return { accept: false, reason: reason || "not wanted", by: "you" };
      }
    }
  };

  // Every script run is a question to the person at the keyboard; no answer (or end of input) is no.
  demo.approveScript = async () => {
    if (options.yes) return { approve: true, by: "--yes" };
    const answer = (await ask(`  ${c.yellow("│")} your answer ${c.dim("[y/N]")} `))?.toLowerCase();
    return { approve: answer === "y" || answer === "yes", by: "you" };
  };
  demo.confirmWorkflow = async () => {
    if (options.yes) return { approve: true, by: "--yes" };
    const answer = (await ask(`  ${c.yellow("│")} run the workflow? ${c.dim("[y/N]")} `))?.toLowerCase();
    return { approve: answer === "y" || answer === "yes", by: "you" };
  };

  renderer.typedByUser();
  renderer.line();
  renderer.line(c.bold("Chat with the team.") + c.dim(` (${demo.framework})`));
  for (const line of HELP) renderer.line(c.dim(line));
  let conversation = 1;
  let hinted = false;
  try {
    for (;;) {
      const input = await ask(`\n${c.bold(c.green("you ›"))} `);
      if (input === undefined || input === "/quit" || input === "/exit") break;
      if (input === "") continue;
      const [command = "", ...rest] = input.split(/\s+/);
      const arg = rest.join(" ");
      if (command === "/help") {
        for (const line of HELP) renderer.line(c.dim(line));
        const offline = demo.bus.events.some((e) => e.type === "setup" && e.offline);
        if (offline) for (const line of repertoireLines()) renderer.line(c.dim(line));
      } else if (command === "/new") {
        conversation++;
        renderer.line(c.dim("A new conversation: no skill is active."));
      } else if (command === "/skills") {
        for (const s of demo.shelf.skills()) {
          const kind = s.role ? "role" : s.disableModelInvocation ? "user-only" : "skill";
          const tools = s.allowedTools ? `tools: ${s.allowedTools.join(", ")}` : "all tools";
          renderer.line(
            `  ${c.bold(s.name.padEnd(18))} ${c.dim(`${kind}, ${s.scope}, ${s.version ?? "no version"} · ${tools}`)}`,
          );
        }
      } else if (command === "/history") {
        await history(demo, arg, renderer, c);
      } else if (command === "/rollback") {
        await rollback(demo, arg, renderer, c);
      } else {
        const thread = `chat-${conversation}`;
        const start = demo.bus.events.length;
        await tell(demo, { thread, user: input });
        // Said once, the first time a skill is still active after its turn: how it will end.
        if (!hinted && stillActive(demo.bus.events.slice(start)).length > 0) {
          hinted = true;
          renderer.line(c.dim("(a skill ends with its task or a new request; /done ends it now)"));
        }
        await reviewTurn(demo, thread, demo.bus.events.slice(start), decide);
      }
    }
  } finally {
    rl.close();
  }
}

/** The skills a turn activated that it did not also end. */
function stillActive(turn: readonly DemoEvent[]): string[] {
  const active = new Set<string>();
  for (const e of turn) {
    if (e.type === "activated") active.add(e.skill);
    else if (e.type === "deactivated") active.delete(e.skill);
  }
  return [...active];
}

/** After a turn that used a skill: analyse it, and let the user decide on what comes back. */
async function reviewTurn(
  demo: Demo,
  thread: string,
  turn: readonly DemoEvent[],
  decide: Decider,
): Promise<void> {
  const used = [
    ...new Set(
      turn.flatMap((e) =>
        e.type === "activated" && demo.shelf.get(e.skill)?.scope !== "builtin" ? [e.skill] : [],
      ),
    ),
  ];
  for (const skill of used) {
    const blocked = turn.filter((e) => e.type === "tool-blocked" && e.skill === skill);
    await improveSkill({
      shelf: demo.shelf,
      bus: demo.bus,
      generate: demo.runner.generate,
      skill,
      transcript: transcriptOf(demo.bus.events, thread),
      outcome:
        blocked.length > 0
          ? { status: "partial", feedback: "a tool call was refused by the skill's whitelist" }
          : { status: "success" },
      decide,
    });
  }
}

type Paint = ReturnType<typeof createColors>;

async function history(demo: Demo, skill: string, renderer: Renderer, c: Paint): Promise<void> {
  if (!demo.shelf.get(skill)) return renderer.line(c.red(`no skill "${skill}"`));
  for (const v of await demo.shelf.history(skill)) {
    const facts = [v.source, v.at, v.recorded ? `id ${v.id}` : undefined].filter(Boolean).join(" · ");
    renderer.line(
      `  ${c.bold((v.version ?? "?").padEnd(8))} ${c.dim(facts)}${v.current ? c.green(" (current)") : ""}`,
    );
  }
}

async function rollback(demo: Demo, skill: string, renderer: Renderer, c: Paint): Promise<void> {
  const versions = demo.shelf.get(skill) ? await demo.shelf.history(skill) : [];
  const previous = versions[1];
  if (!previous) return renderer.line(c.red(`nothing to roll back for "${skill}"`));
  const write = await demo.shelf.rollback(skill, previous.id);
  await demo.shelf.refresh();
  demo.bus.emit({
    type: "rolled-back",
    skill,
    ...(previous.version && { restored: previous.version }),
    ...(write.version && { version: write.version }),
    versionId: write.versionId,
  });
}
