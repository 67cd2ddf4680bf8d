/**
 * The transcript a person reads: one line per step of the story, coloured on a terminal and
 * plain anywhere else, with a spinner (on stderr, terminals only) while a model is working.
 * It only reads the event stream; `--json` writes the same stream as JSON lines instead.
 */
import type { Writable } from "node:stream";
import {
  type EndReason,
  escapeTerminal,
  type MatchReason,
  type SkillSource,
  terminalStyles,
} from "@skillshelf/core";
import { createColors } from "picocolors";
import yoctoSpinner, { type Spinner } from "yocto-spinner";
import type { DemoEvent } from "./events.js";
import { short } from "./improve.js";
import { OFFLINE_MODEL_NOTICE } from "./offline-model/policy.js";
import { wrapToWidth } from "./wrap.js";

export interface RendererOptions {
  out: Writable;
  /** Where the spinner goes (stderr), when there is one. */
  err?: Writable;
  color: boolean;
  spinner: boolean;
  /** For details an event does not carry (a skill's whitelist, its file). */
  skills?: SkillSource;
}

export interface Renderer {
  handle(event: DemoEvent): void;
  /** Show that something is working (the spinner), until the next line or `idle()`. */
  busy(text: string): void;
  idle(): void;
  /** Print a line that is not an event (prompts, help). */
  line(text?: string): void;
  /** Where to look up skills (whitelists, scopes) that events name. */
  useSkills(skills: SkillSource): void;
  /** The user's words are already on screen (typed at the prompt): do not repeat them. */
  typedByUser(): void;
}

const LABEL = 12;
/** The transcript's width: it reads well in an 80-column terminal, and in a log. */
const WIDTH = 80;

export function createRenderer(options: RendererOptions): Renderer {
  // Event texts come from skill files, the model and the user: the styles escape every
  // terminal control in them, so only the renderer's own colours reach the terminal.
  const styles = terminalStyles(createColors(options.color));
  const c = styles.colors;
  const out = options.out;
  let spinner: Spinner | undefined;
  let busyText: string | undefined;
  let tools: string[] = [];
  let agentAtWork = "lead";
  let skills = options.skills;
  let echoUser = true;
  // This turn's stage-1 candidates, until the model loads one (else: it declined them).
  let offered: string[] = [];
  /** Diagnostics already shown (code and file): the adapters repeat them on every step. */
  const diagnosed = new Set<string>();
  // Skills the model ended whose tool limits still hold.

  const write = (text = "") => {
    if (spinner) {
      spinner.stop();
      spinner = undefined;
    }
    const lines = styles.render(text).split("\n");
    out.write(`${lines.map((l) => wrapToWidth(l, WIDTH)).join("\n")}\n`);
    if (busyText !== undefined) startSpinner();
  };
  const startSpinner = () => {
    if (!options.spinner || !options.err) return;
    spinner = yoctoSpinner({
      text: styles.render(c.dim(busyText ?? "")),
      stream: options.err,
      handleSignals: false,
    }).start();
  };
  const step = (label: string, text: string, paint: (s: string) => string = c.cyan) =>
    write(`  ${paint(label.padEnd(LABEL))} ${text}`); // a longer label (a role's name) just pushes its line
  const indent = (text: string, by: string) => text.split("\n").join(`\n${by}`);
  const allowedOf = (skill: string | undefined) => (skill ? skills?.get(skill)?.allowedTools : undefined);

  // The model's first move after the candidates: if it was not to load one, it declined them.
  const settle = () => {
    if (offered.length === 0) return;
    step(
      "declined",
      `${offered.join(", ")} ${c.dim("— a stage-1 candidate the model judged not to fit")}`,
      c.dim,
    );
    offered = [];
  };

  const busy = (text: string) => {
    busyText = text;
    if (!spinner) startSpinner();
    else spinner.text = styles.render(c.dim(text));
  };

  const renderers: { [K in DemoEvent["type"]]?: (e: Extract<DemoEvent, { type: K }>) => void } = {
    setup(e) {
      tools = e.tools;
      const skills = e.skills.filter((s) => !s.role);
      const roles = e.skills.filter((s) => s.role);
      write(c.bold("skillshelf demo") + c.dim(" — an agent team whose roles are skills"));
      step("framework", `${e.framework}  ${c.dim("(--framework ai-sdk | langchain | mastra)")}`, c.dim);
      step(
        "model",
        e.offline ? OFFLINE_MODEL_NOTICE : `${e.model} (OPENAI_API_KEY is set: a real model)`,
        c.dim,
      );
      step(
        "sandbox",
        `${e.sandbox}  ${c.dim("a temporary copy of the demo workspace; your files are never touched")}`,
        c.dim,
      );
      step(
        "skills",
        skills.map((s) => `${s.name}${s.hidden ? c.dim(" (user-only)") : ""}`).join(", "),
        c.dim,
      );
      const builtin = roles.filter((s) => s.scope === "builtin").map((s) => s.name);
      const written = roles
        .filter((s) => s.scope !== "builtin")
        .map((s) => `${c.bold(s.name)} ${c.dim(`(${s.file})`)}`);
      step(
        "roles",
        [builtin.length ? `${builtin.join(", ")} ${c.dim("(builtin)")}` : "", ...written]
          .filter(Boolean)
          .join(" · "),
        c.dim,
      );
    },
    chapter(e) {
      write();
      const head = `── ${e.index} · ${e.title} `;
      write(c.bold(c.magenta(head)) + c.magenta("─".repeat(Math.max(3, 72 - head.length))));
      if (e.note) write(`   ${c.dim(e.note)}`);
    },
    user(e) {
      if (echoUser) {
        write();
        write(`${c.bold(c.green("you ›"))} ${e.text}`);
      }
      agentAtWork = "lead";
      busy("lead is thinking…");
    },
    candidates(e) {
      offered = e.candidates.map((cand) => cand.name);
      const list = e.candidates.map(
        (cand) => `${c.bold(cand.name)} ${c.dim(`${cand.score.toFixed(2)} · ${reasons(cand.reasons)}`)}`,
      );
      step("candidates", list.length ? list.join("; ") : c.dim("none"));
      for (const v of e.vetoed)
        step("vetoed", `${v.name} ${c.dim(`— exclusion "${v.exclusion}" matched the request`)}`, c.yellow);
    },
    activated(e) {
      offered = [];
      const allowed = allowedOf(e.skill);
      const by =
        e.by === "user"
          ? `by the user${e.args ? `, args "${e.args}"` : ""}`
          : e.by === "model"
            ? "by the model"
            : "by code";
      step(
        "activated",
        `${c.bold(e.skill)} ${c.dim(`(${by})`)}${allowed ? ` · tools now: ${allowed.join(", ")}` : ""}`,
        c.green,
      );
    },
    deactivated(e) {
      settle();
      // A skill the model ended keeps its tool limits until the user's next message, when core
      // reports them released.
      if (e.why === "released") {
        step("released", `${c.bold(e.skill)}${c.dim("'s tool limits (a new message)")}`, c.dim);
        return;
      }
      step("ended", `${c.bold(e.skill)} ${c.dim(`(${endedWhy(e.why)})`)}`, c.green);
    },
    "activation-refused"(e) {
      step("refused", `${e.skill} ${c.dim(e.error_type)}`, c.yellow);
    },
    "tool-call"(e) {
      settle();
      if (e.agent !== agentAtWork) agentAtWork = e.agent;
      busy(`${e.agent} is working…`);
    },
    "tool-result"(e) {
      const lines = e.output.split("\n").filter(Boolean);
      // One line of output says it all ("renamed a → b"); longer output: what was asked, and how much came back.
      const args = argsText(e.args);
      const text =
        lines.length <= 1
          ? clip(e.output, 90)
          : `${args ? `${c.dim(args)} ` : ""}${c.dim("→")} ${lines.length} lines`;
      step(e.agent, `${c.bold(e.tool)} ${text}`, c.blue);
    },
    "tool-blocked"(e) {
      settle();
      const allowed = allowedOf(e.skill);
      write(
        `  ${c.bold(c.red("✗ BLOCKED".padEnd(LABEL)))} ${c.red(c.bold(e.tool))} — ${e.skill ? `${e.skill} allows only ${allowed?.join(", ") ?? "its allowed-tools"}` : "not allowed now"}${c.dim("; the model got TOOL_NOT_ALLOWED")}`,
      );
    },
    delegated(e) {
      settle();
      const others = tools.filter((t) => !e.tools.includes(t) && t !== "delegate");
      const role = skills?.get(e.role);
      step(
        "delegated",
        `${c.bold(e.role)}${role ? c.dim(` (${role.scope === "builtin" ? "builtin role" : "role skill, a file in the project"})`) : ""} · may use: ${e.tools.join(", ") || "no tools"}${others.length ? c.dim(` · not: ${others.join(", ")}`) : ""}`,
        c.magenta,
      );
      busy(`${e.role} is working…`);
    },
    answer(e) {
      busyText = undefined;
      settle();
      write(`${c.bold(c.green("lead ›"))} ${indent(e.text, "       ")}`);
    },
    analysis(e) {
      step(
        "analysis",
        `of the ${c.bold(e.skill)} run (outcome: ${e.status})${e.feedback ? ` — feedback: ${c.italic(`"${e.feedback}"`)}` : ""}`,
        c.yellow,
      );
      busy("the model is analysing the run…");
    },
    "improvement-none"(e) {
      busyText = undefined;
      step("", c.dim(`→ ${e.reason}`));
    },
    "improvement-proposed"(e) {
      busyText = undefined;
      const bar = c.yellow("│");
      const head = `┌─ proposal for ${e.skill}${e.version ? ` ${e.version}` : ""} (id ${short(e.id)}) `;
      write(`  ${c.yellow(head)}${c.yellow("─".repeat(Math.max(3, 70 - head.length)))}`);
      write(`  ${bar} ${c.bold(e.title)}`);
      write(`  ${bar} ${c.dim("why     ")} ${e.rationale}`);
      for (const quote of e.evidence) write(`  ${bar} ${c.dim("evidence")} "${quote}"`);
      for (const line of changedLines(e.diff)) write(`  ${bar} ${c.dim("change  ")} ${paintDiff(c, line)}`);
    },
    "improvement-decided"(e) {
      const verdict = e.decision === "accepted" ? c.green("accept") : c.red(`reject: ${e.reason ?? ""}`);
      write(`  ${c.yellow("└─")} ${c.bold(verdict)} ${c.dim(`— decided by ${e.by}`)}`);
      if (e.decision === "rejected")
        step("rejected", c.dim("kept with its reason, so the same idea is not proposed again"), c.red);
    },
    "skill-version"(e) {
      step(
        "new version",
        `${c.bold(e.skill)} ${e.from ?? "?"} → ${c.bold(e.to ?? "?")} ${c.dim("(a managed write: checked, atomic; the old version is kept)")}`,
        c.green,
      );
    },
    "skill-diff"(e) {
      step("diff", c.dim(`${e.from ?? "?"} → ${e.to ?? "?"}`));
      for (const line of hunkLines(e.diff)) write(`               ${paintDiff(c, line)}`);
    },
    "rolled-back"(e) {
      step(
        "rolled back",
        `${c.bold(e.skill)} to ${e.restored ?? "the previous version"}'s text${e.version ? c.dim(` — the rollback is itself version ${e.version}, so it can be undone too`) : ""}`,
        c.yellow,
      );
    },
    "script-request"(e) {
      settle();
      busyText = undefined;
      const command = [e.script, ...e.args].join(" ");
      step("approve?", `run ${c.bold(command)} of skill ${c.bold(e.skill)}? ${c.dim("[y/N]")}`, c.yellow);
    },
    "script-decided"(e) {
      step(
        e.approve ? "approved" : "refused",
        `${e.script} ${c.dim(`— decided by ${e.by}`)}`,
        e.approve ? c.green : c.red,
      );
      if (e.approve) busy(`${e.script} is running…`);
    },
    diagnostic(e) {
      // One line per skill and kind, however often the adapters report it (every step does);
      // the full messages are in --json.
      const key = `${e.code}\u0000${e.file}`;
      if (diagnosed.has(key)) return;
      diagnosed.add(key);
      const skill = /Skill "([^"]+)"/.exec(e.message)?.[1] ?? e.file;
      const text =
        e.code === "unknown-tool"
          ? `${skill}: allowed-tools name tools this host lacks (they grant nothing)`
          : `${skill}: ${e.code}`;
      step("debug", c.dim(`${text}; --json has the details`), c.dim);
    },
    notice(e) {
      step("note", e.text, c.dim);
    },
    error(e) {
      busyText = undefined;
      write(`  ${c.red(c.bold("error".padEnd(LABEL)))} ${e.message}`);
    },
  };

  return {
    handle(event) {
      const render = renderers[event.type] as ((e: DemoEvent) => void) | undefined;
      render?.(event);
    },
    busy,
    idle() {
      busyText = undefined;
      spinner?.stop();
      spinner = undefined;
    },
    line: write,
    useSkills(source) {
      skills = source;
    },
    typedByUser() {
      echoUser = false;
    },
  };
}

/** Why a skill ended, as the person at the keyboard would say it. */
function endedWhy(why: EndReason | undefined): string {
  switch (why) {
    case "user":
      return "you typed /done; all tools again";
    case "model":
      return "the model finished its task";
    case "new-request":
      return "a new request; all tools again";
    case "new-turn":
      return "a new task began";
    default:
      return "ended by code";
  }
}

/** Why a skill was a candidate, briefly: its strongest reasons. */
function reasons(list: readonly MatchReason[]): string {
  const text = list.slice(0, 2).map((r) => {
    switch (r.kind) {
      case "trigger":
        return `trigger "${r.trigger}"`;
      case "example":
        return `like an example`;
      case "lexical":
        return `words: ${r.terms.slice(0, 4).join(", ")}`;
      case "name":
        return "its name";
      case "semantic":
        return `meaning ${r.score.toFixed(2)}`;
      case "usage":
        return "used before";
      default:
        return "";
    }
  });
  return text.filter(Boolean).join(", ");
}

function argsText(args: unknown): string {
  if (!args || typeof args !== "object") return "";
  const entries = Object.entries(args as Record<string, unknown>).filter(([k]) => k !== "content");
  return entries.map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`).join(" ");
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The +/- lines of a diff (no headers): what a proposal changes. */
function changedLines(diff: string): string[] {
  return diff.split("\n").filter((l) => /^[+-]/.test(l) && !/^(\+\+\+|---)/.test(l));
}

/** The hunks of a unified diff, without the file headers. */
function hunkLines(diff: string): string[] {
  return diff
    .split("\n")
    .filter((l) => l !== "" && !/^(={5,}|\+\+\+ |--- |Index: )/.test(l))
    .map((l) => l.replace(/\s+$/, ""));
}

function paintDiff(c: ReturnType<typeof createColors>, line: string): string {
  if (line.startsWith("+")) return c.green(line);
  if (line.startsWith("-")) return c.red(line);
  if (line.startsWith("@@")) return c.cyan(line);
  return c.dim(line);
}

/** `--json`: the event stream itself, one JSON object per line. */
export function createJsonWriter(out: Writable): (event: DemoEvent) => void {
  // JSON.stringify leaves C1 and bidi controls raw; their escapes stay valid JSON.
  return (event) => out.write(`${escapeTerminal(JSON.stringify(event))}\n`);
}

/** The skill events of a run, counted: the closing line of the story. */
export function summaryOf(events: readonly DemoEvent[]): string {
  const count = (type: DemoEvent["type"]) => events.filter((e) => e.type === type).length;
  const activations = events.filter(
    (e): e is Extract<DemoEvent, { type: "activated" }> => e.type === "activated",
  );
  const byUser = activations.filter((a) => a.by === "user").length;
  const decided = events.filter(
    (e): e is Extract<DemoEvent, { type: "improvement-decided" }> => e.type === "improvement-decided",
  );
  const parts = [
    `${count("candidates")} stage-1 candidate lists`,
    `${activations.length} activations (${activations.length - byUser} by the model, ${byUser} by the user)`,
    `${count("tool-blocked")} blocked call${count("tool-blocked") === 1 ? "" : "s"}`,
    `${count("delegated")} delegation${count("delegated") === 1 ? "" : "s"}`,
    `${decided.filter((d) => d.decision === "accepted").length} proposal accepted, ${decided.filter((d) => d.decision === "rejected").length} rejected`,
    `${count("rolled-back")} rollback${count("rolled-back") === 1 ? "" : "s"}`,
  ];
  return parts.join(" · ");
}
