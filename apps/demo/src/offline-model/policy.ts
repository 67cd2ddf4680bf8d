/**
 * The demo's offline model: deterministic rules, not an LLM. It plays by the same rules as a
 * real model: it only sees the system text, the messages and the tools it is offered, and
 * every call it makes goes through the framework and skillshelf's guard like any other. The
 * three framework wrappers (AI SDK, Mastra, LangChain) only translate their prompt format
 * into an `OfflineRequest`, so the same request gets the same answer everywhere.
 *
 * Its stage-2 judgment is literal: it takes an offered `skill_<name>` tool only when the
 * request names the skill (every word of the name appears in it). A weak stage-1 candidate
 * is therefore offered but declined, as a real model declines a poor fit.
 *
 * One deliberate habit makes the guard visible: once it has seen `write_file`, it tries to
 * save its work there even when a skill has since restricted the tools — the mistake real
 * models make with tools they saw earlier in a conversation — unless the active skill's text
 * tells it never to (the rule an accepted improvement adds): then it suggests a file name.
 *
 * It ends a skill with the offered end tool once the skill's task is complete and nothing is
 * left to ask (batch-rename after its last rename). Release notes whose save was refused stay
 * open: the user may answer that, and their answer is still the skill's task.
 */

import { knownRequestFor, OUTSIDE_REPERTOIRE } from "./repertoire.js";
import { workflowReport } from "./workflow-report.js";

export interface OfflineToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export type OfflineMessage =
  | { role: "user"; text: string }
  | { role: "assistant"; text?: string; toolCalls?: OfflineToolCall[] }
  | { role: "tool"; id: string; name: string; output: string };

export interface OfflineRequest {
  system: string;
  messages: OfflineMessage[];
  tools: Array<{ name: string; description: string }>;
}

export type OfflineReply =
  | { text: string }
  | { toolCalls: Array<{ name: string; args: Record<string, unknown> }> };

/** What one model instance remembers across calls: the tools it has ever been shown. */
export interface OfflineMemory {
  seenTools: Set<string>;
}

export const OFFLINE_MODEL_NOTICE =
  "offline demo model: deterministic rules, not an LLM (--real-model: a real one)";

/** Skills whose bodies are in the system text right now. */
export function activeSkillNames(system: string): string[] {
  return [...system.matchAll(/<skill_content name="([^"]+)"/g)].map((m) => m[1]!);
}

/** The skill's text rules a tool out by name ("never `write_file`"), as a model would read it. */
function forbids(body: string, tool: string): boolean {
  return body.includes(`never \`${tool}\``);
}

/** The body of an active skill, as the system text carries it. */
function skillBody(system: string, name: string): string {
  const start = system.indexOf(`<skill_content name="${name}">`);
  if (start < 0) return "";
  const end = system.indexOf("</skill_content>", start);
  return system.slice(start, end < 0 ? undefined : end);
}

export function decide(request: OfflineRequest, memory: OfflineMemory): OfflineReply {
  for (const t of request.tools) memory.seenTools.add(t.name);
  const { messages, tools, system } = request;

  // The improvement loop's analysis: a different job, recognised by what it asks for.
  if (/"proposals"\s*:/.test(system) && userTextOf(messages).includes("<transcript>")) {
    return { text: JSON.stringify({ proposals: proposeImprovements(userTextOf(messages)) }) };
  }

  const lastUser = messages.findLastIndex((m) => m.role === "user");
  const userText = lastUser >= 0 ? (messages[lastUser] as { text: string }).text : "";
  const turn = messages.slice(lastUser + 1);
  const calls = turn.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []));
  const results = turn.filter((m): m is Extract<OfflineMessage, { role: "tool" }> => m.role === "tool");
  const resultOf = (name: string) => results.findLast((r) => r.name === name)?.output;
  const called = (name: string) => calls.some((c) => c.name === name);
  const offered = new Set(tools.map((t) => t.name));
  const active = activeSkillNames(system);
  const endTool = tools.find((t) => /end_skill/.test(t.name))?.name;
  const endedNow = endedInThisTurn(results);
  // A skill it ended in this turn is still the task it answers for (its body has left the prompt).
  const working = [...active, ...endedNow];

  // The user's end command: core tells the model in the system text; acknowledge it.
  const endedByUser = /The user ended (.+?) \(\/done\)/.exec(system)?.[1];
  if (endedByUser) return { text: `Done: ${endedByUser.replace(/"/g, "")} has ended.` };
  if (/The user typed \/done, but no skill was active/.test(system))
    return { text: "No skill was active, so there was nothing to end." };

  // A workflow skill core ran: report its result (its steps are not the model's to redo).
  const workflow = results.find((r) => r.name.startsWith("skill_") && workflowReport(r.output) !== undefined);
  if (workflow) return { text: workflowReport(workflow.output)! };

  // 1. Stage 2: take an offered skill the request names; decline weaker candidates.
  if (active.length === 0 && !calls.some((c) => c.name.startsWith("skill_"))) {
    const fit = tools.find(
      (t) =>
        t.name.startsWith("skill_") &&
        (requestNames(userText, t.name.slice(6)) || knownRequestFor(t.name.slice(6), userText)),
    );
    if (fit) return { toolCalls: [{ name: fit.name, args: {} }] };
  }

  // 2. Follow the active skill's instructions.
  if (working.includes("release-notes")) {
    const log = resultOf("git_log");
    if (log === undefined) return { toolCalls: [{ name: "git_log", args: {} }] };
    const notes = releaseNotes(log);
    if (forbids(skillBody(system, "release-notes"), "write_file")) {
      return { text: `${notes}\n(To keep them, save them as RELEASE_NOTES.md.)` };
    }
    if (memory.seenTools.has("write_file") && !called("write_file")) {
      return { toolCalls: [{ name: "write_file", args: { path: "RELEASE_NOTES.md", content: notes } }] };
    }
    const refused = /TOOL_NOT_ALLOWED/.test(resultOf("write_file") ?? "");
    return {
      text: refused
        ? `${notes}\n(I could not save them to RELEASE_NOTES.md: this skill does not allow writing files.)`
        : notes,
    };
  }
  if (working.includes("count-lines")) {
    const runner = tools.find((t) => /run_skill_script/.test(t.name))?.name;
    const run = runner ? resultOf(runner) : undefined;
    if (runner && run === undefined) {
      const folder = /\b(?:in|of)\s+(?:the\s+)?(?:files\s+in\s+)?([\w][\w/-]*)\s*[.?!]?$/i.exec(
        userText,
      )?.[1];
      return {
        toolCalls: [
          {
            name: runner,
            args: { skill: "count-lines", script: "scripts/count.sh", args: [folder ?? "src"] },
          },
        ],
      };
    }
    return { text: scriptReport(run) };
  }
  if (working.includes("batch-rename")) {
    const body = skillBody(system, "batch-rename");
    const [, argFolder, argPrefix] = /^\/batch-rename\s+(\S+)\s+(\S+)/.exec(userText) ?? [];
    const folder = /file in `([^`]+)`/.exec(body)?.[1] ?? argFolder ?? ".";
    const prefix = /starts with `([^`]+)`/.exec(body)?.[1] ?? argPrefix ?? "";
    const listing = resultOf("list_files");
    if (listing === undefined) return { toolCalls: [{ name: "list_files", args: { folder } }] };
    const plan = renamePlan(listing, prefix);
    const pending = plan.filter(
      (p) => !calls.some((c) => c.name === "rename_file" && c.args.from === p.from),
    );
    if (pending.length > 0)
      return { toolCalls: pending.map((p) => ({ name: "rename_file", args: { ...p } })) };
    if (endTool && active.includes("batch-rename") && !called(endTool))
      return { toolCalls: [{ name: endTool, args: { name: "batch-rename" } }] };
    return { text: `Renamed ${plan.length} files:\n${plan.map((p) => `  ${p.from} → ${p.to}`).join("\n")}` };
  }

  // 3. A sub-agent working under a role skill (its instructions are the system text).
  if (/security auditor/i.test(system) && !offered.has("delegate")) {
    const path = /\b([\w./-]+\.(?:ts|js|py|go|rb|java))\b/.exec(userText)?.[1];
    if (path && offered.has("read_file")) {
      const source = resultOf("read_file");
      if (source === undefined) return { toolCalls: [{ name: "read_file", args: { path } }] };
      return { text: securityFindings(path, source) };
    }
    const hits = resultOf("grep");
    if (hits === undefined && offered.has("grep"))
      return { toolCalls: [{ name: "grep", args: { pattern: "md5|secret" } }] };
    return { text: "Checked src/ for secrets and weak password hashing: nothing found." };
  }
  // Any other role: read the file the task names (if its tools allow) and report on it.
  if (
    !offered.has("delegate") &&
    !tools.some((t) => t.name.startsWith("skill_")) &&
    /^You are /m.test(system)
  ) {
    const path = /\b([\w./-]+\.(?:ts|js|md|json))\b/.exec(userText)?.[1];
    if (path && offered.has("read_file")) {
      const source = resultOf("read_file");
      if (source === undefined) return { toolCalls: [{ name: "read_file", args: { path } }] };
      const heading =
        source
          .split("\n")
          .find((l) => l.trim())
          ?.replace(/^#+\s*/, "") ?? "";
      return {
        text: `Read ${path} (${source.split("\n").length} lines, starting "${heading}"). The offline model has no more to say.`,
      };
    }
  }

  // 4. Delegation: "ask the <role> to …" when a delegation tool is offered.
  const delegate = tools.find((t) => /delegat/i.test(t.name));
  if (delegate && !called(delegate.name)) {
    const role = roleMentioned(userText, delegate.description);
    if (role) return { toolCalls: [{ name: delegate.name, args: { role, task: userText } }] };
  }
  const report = delegate ? resultOf(delegate.name) : undefined;
  if (report !== undefined)
    return {
      text: `The ${roleMentioned(userText, delegate!.description)} reports:\n${subAgentText(report)}`,
    };

  // 5. No skill fits: answer directly, with the tools every agent has.
  if (/commit message/i.test(userText) && offered.has("git_log")) {
    const log = resultOf("git_log");
    if (log === undefined) return { toolCalls: [{ name: "git_log", args: { limit: 5 } }] };
    return { text: commitMessage(log) };
  }
  const searched = searchRequest(userText);
  if (searched && offered.has("grep")) {
    const hits = resultOf("grep");
    if (hits === undefined) return { toolCalls: [{ name: "grep", args: { pattern: searched.pattern } }] };
    const found = hits === "no matches" ? [] : hits.split("\n").filter(Boolean);
    const where = searched.web ? "No web search here, so I searched the code: " : "";
    return {
      text: found.length
        ? `${where}${found.length} ${found.length === 1 ? "match" : "matches"} for "${searched.pattern}":\n${found.map((h) => `  ${h}`).join("\n")}`
        : `${where}no match for "${searched.pattern}".`,
    };
  }
  if (/\brename\b/i.test(userText) && offered.has("list_files")) {
    const folder = /\bin (\w[\w/-]*)/.exec(userText)?.[1] ?? ".";
    const listing = resultOf("list_files");
    if (listing === undefined) return { toolCalls: [{ name: "list_files", args: { folder } }] };
    const prefix = /start with (\S+?)\.?$/.exec(userText)?.[1] ?? "";
    const plan = renamePlan(listing, prefix);
    return {
      text: `I have not renamed anything: a guessed rename is hard to undo. This is what would change:\n${plan.map((p) => `  ${p.from} → ${p.to}`).join("\n")}`,
    };
  }
  return { text: OUTSIDE_REPERTOIRE };
}

/** What a `run_skill_script` result says, as a person would report it: exit code, output tail. */
function scriptReport(output: string | undefined): string {
  if (output === undefined) return "This host does not run skill scripts, so I could not count the lines.";
  try {
    const result = JSON.parse(output) as {
      status?: string;
      error_type?: string;
      message?: string;
      data?: {
        script?: string;
        exitCode?: number | null;
        timedOut?: boolean;
        stdout?: string;
        stderr?: string;
      };
    };
    if (result.status !== "success" || !result.data) {
      return result.error_type === "NOT_APPROVED"
        ? "You declined to run scripts/count.sh, so I counted nothing."
        : `The script did not run (${result.error_type ?? "error"}: ${result.message ?? "no reason given"}).`;
    }
    const { script, exitCode, timedOut, stdout = "", stderr = "" } = result.data;
    const tail = (stdout || stderr).trimEnd().split("\n").slice(-8);
    const status = timedOut ? "was stopped by the timeout" : `exited with code ${exitCode}`;
    return [
      `${script ?? "The script"} ${status}. The end of its output:`,
      ...tail.map((l) => `  ${l.trim()}`),
    ].join("\n");
  } catch {
    return `The script's result was not readable: ${output.slice(0, 200)}`;
  }
}

/** "Search the code for md5", "search the web for X": what to look for, and whether the web was asked. */
function searchRequest(text: string): { pattern: string; web: boolean } | undefined {
  if (text.length > 300) return undefined; // a request, not a document: keeps the lazy match cheap
  const match = /\bsearch\b(.*?)\bfor\s+["'`]?(.+?)["'`]?\s*[.?!]?\s*$/i.exec(text);
  const pattern = match?.[2]?.trim();
  if (!match || !pattern) return undefined;
  return { pattern: escapeRegExp(pattern), web: /\b(web|internet|online)\b/i.test(match[1] ?? "") };
}

/** The skills this turn's end-tool calls ended, as core's structured results say. */
function endedInThisTurn(results: ReadonlyArray<Extract<OfflineMessage, { role: "tool" }>>): string[] {
  return results.flatMap((r) => {
    if (!/end_skill/.test(r.name)) return [];
    try {
      const parsed = JSON.parse(r.output) as { status?: string; data?: { ended?: unknown } };
      const ended = parsed.status === "success" ? parsed.data?.ended : undefined;
      return Array.isArray(ended) ? ended.filter((n): n is string => typeof n === "string") : [];
    } catch {
      return [];
    }
  });
}

function userTextOf(messages: OfflineMessage[]): string {
  return messages.flatMap((m) => (m.role === "user" ? [m.text] : [])).join("\n");
}

/** Whether every word of a skill name appears in the request ("release-notes" ← "the release notes"). */
function requestNames(text: string, skill: string): boolean {
  const words = new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  return skill
    .split(/[-_]/)
    .every((w) => words.has(w) || words.has(`${w}s`) || words.has(w.replace(/s$/, "")));
}

function renamePlan(listing: string, prefix: string): Array<{ from: string; to: string }> {
  return listing
    .split("\n")
    .filter(Boolean)
    .map((from) => {
      const base = from.split("/").pop()!;
      const rest = base
        .replace(/\s+/g, "-")
        .replace(new RegExp(`^${escapeRegExp(prefix.replace(/-$/, ""))}-?`, "i"), "");
      return { from, to: from.slice(0, from.length - base.length) + prefix + rest };
    })
    .filter((p) => p.from !== p.to);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function commits(log: string) {
  const lines = log.split("\n").filter(Boolean);
  const since = lines.findIndex((l) => / release:/.test(l));
  return (since >= 0 ? lines.slice(0, since) : lines).map((l) => {
    const [hash, ...rest] = l.split(" ");
    return { hash: hash!, message: rest.join(" ") };
  });
}

function releaseNotes(log: string): string {
  const all = commits(log);
  const section = (title: string, pick: (m: string) => boolean) => {
    const items = all
      .filter((c) => pick(c.message))
      .map(
        (c) =>
          `- ${sentence(c.message.replace(/^\w+!?:\s*/, "").replace(/\s*\(BREAKING\)/, ""))} (${c.hash})`,
      );
    return items.length ? `### ${title}\n${items.join("\n")}` : "";
  };
  return [
    "## Release notes",
    section("Breaking changes", (m) => /!:|BREAKING/.test(m)),
    section("Features", (m) => /^feat:/.test(m)),
    section("Fixes", (m) => /^fix:/.test(m)),
  ]
    .filter(Boolean)
    .join("\n\n");
}

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function commitMessage(log: string): string {
  const all = commits(log).filter((c) => /^(feat|fix)/.test(c.message));
  const subjects = all.map((c) => c.message.replace(/^\w+!?:\s*/, "").replace(/\s*\(BREAKING\)/, ""));
  return [
    "No skill fits (summarize-diff is not for commit messages), so I wrote it directly:",
    "",
    `  feat!: ${subjects.join("; ")}`,
    "",
    "  BREAKING CHANGE: note dates are ISO strings.",
  ].join("\n");
}

function securityFindings(path: string, source: string): string {
  const findings: string[] = [];
  source.split("\n").forEach((line, i) => {
    const at = `${path}:${i + 1}`;
    if (/createHash\(["']md5["']\)/.test(line)) {
      findings.push(`high — ${at} — passwords hashed with MD5 — use scrypt or argon2 with a per-user salt`);
    }
    if (/SECRET\s*=\s*["']/.test(line))
      findings.push(`high — ${at} — hard-coded session secret — load it from the environment`);
    if (/Hash\s*===/.test(line))
      findings.push(`medium — ${at} — hash compared with === — use crypto.timingSafeEqual`);
  });
  return findings.length
    ? findings.join("\n")
    : `Checked ${path} for secrets, weak hashing and unsafe comparisons: nothing found.`;
}

function roleMentioned(text: string, description: string): string | undefined {
  const names = [...description.matchAll(/^- ([a-z0-9][a-z0-9-]*):/gm)].map((m) => m[1]!);
  const lower = text.toLowerCase();
  return names.find((n) => lower.includes(n.replace(/-/g, " ")) || lower.includes(n));
}

/** A delegation result is core's structured `{ status, data: { text } }`; show its text. */
function subAgentText(output: string): string {
  try {
    const parsed = JSON.parse(output) as { data?: { text?: string }; message?: string };
    return parsed.data?.text ?? parsed.message ?? output;
  } catch {
    return output;
  }
}

/** The skills a transcript's refusal line names ("… (not in the allowed-tools of a, b)"). */
function refusedBy(line: string): string[] {
  return /allowed-tools of ([^)]+)\)/.exec(line)?.[1]?.split(/,\s*/) ?? [];
}

const PROPOSAL_TITLE = "Keep results in the answer; never call tools outside the whitelist";

/**
 * The analysis answer: one small, general proposal per tool the skill's whitelist refused in
 * the run — say so in the skill, right after its last step, with the refusal as evidence.
 */
function proposeImprovements(prompt: string): unknown[] {
  const skill = /<skill>\n([\s\S]*?)\n<\/skill>/.exec(prompt)?.[1] ?? "";
  const transcript = /<transcript>\n([\s\S]*?)\n<\/transcript>/.exec(prompt)?.[1] ?? "";
  // Only this skill's refusals: an earlier skill's in the same conversation are not its fault.
  const name = /^name:\s*(\S+)/m.exec(skill)?.[1];
  const refusal = transcript
    .split("\n")
    .find((l) => /TOOL_NOT_ALLOWED/.test(l) && (!name || refusedBy(l).includes(name)));
  const tool =
    refusal && (/→ ([\w-]+)/.exec(refusal) ?? /Tool \\?"([\w-]+)\\?" is not allowed/.exec(refusal))?.[1];
  const steps = [...skill.matchAll(/^(\d+)\. .+$/gm)];
  const last = steps.at(-1);
  // Ideas the user already rejected (or that wait for a decision) are listed by title: not again.
  if (!refusal || !tool || !last || prompt.includes(`"${PROPOSAL_TITLE}"`)) return [];
  if (skill.includes("Use only this skill's allowed-tools")) return []; // the rule is there already
  // Short on purpose: core refuses a proposal that bloats the skill.
  const next = `${Number(last[1]) + 1}. Use only this skill's allowed-tools (never \`${tool}\`, even if used earlier); to save the result, suggest a file name instead.`;
  return [
    {
      title: PROPOSAL_TITLE,
      change: "add",
      target: "rule",
      rationale: `The agent tried \`${tool}\`, which this skill does not allow, and the call was refused: a wasted step that a clear rule prevents for every future run.`,
      evidence: [refusal.trim().slice(0, 300)],
      edits: [{ before: last[0], after: `${last[0]}\n${next}` }],
      changes_description: false,
    },
  ];
}
