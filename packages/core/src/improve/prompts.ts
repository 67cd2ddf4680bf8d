/**
 * The two prompts of the improvement loop: the analysis (propose small, evidenced edits)
 * and the fallback merge (apply one approved proposal whose edits did not apply as
 * written). Each rule in the analysis prompt answers one of seed 000's failure modes.
 */
import type { ImprovementProposal, RunOutcome } from "./schema.js";

export type Transcript = string | ReadonlyArray<{ role: string; content: string }>;

export interface RejectedIdea {
  title: string;
  edits: ReadonlyArray<{ before: string; after: string }>;
  reason?: string;
}

export interface SkillRecord {
  /** Runs recorded as going well, in total and on the current version. */
  positive: number;
  positiveOnCurrent: number;
  /** Runs analysed for problems. */
  problems: number;
  accepted: number;
  rejected: number;
  /** Recent notes from runs that went well. */
  positiveNotes: string[];
}

export interface AnalysisPromptInput {
  name: string;
  content: string;
  transcript: string;
  outcome: RunOutcome;
  rejected?: readonly RejectedIdea[];
  pending?: readonly string[];
  record?: SkillRecord;
  flags?: readonly string[];
  maxProposals: number;
}

export const MAX_TRANSCRIPT_CHARS = 24_000;

/** Renders a transcript as text; long ones keep their start and their end. */
export function transcriptText(transcript: Transcript, max = MAX_TRANSCRIPT_CHARS): string {
  const text =
    typeof transcript === "string"
      ? transcript
      : transcript.map((m) => `${m.role}: ${m.content}`).join("\n\n");
  if (text.length <= max) return text;
  const head = Math.floor(max / 5);
  const tail = max - head;
  return `${text.slice(0, head)}\n\n[… ${text.length - max} characters omitted …]\n\n${text.slice(-tail)}`;
}

const ANALYSIS_SYSTEM = (
  max: number,
) => `You review how an AI agent used one skill — a SKILL.md file: YAML frontmatter plus Markdown instructions — in one run, and propose small improvements to it. A person approves or rejects each proposal; nothing changes without them.

Rules:
- Small, incremental edits only: each proposal adds, changes or removes one step or rule. Never rewrite or reorganise the skill.
- Ground every proposal in this run: quote the passages of the transcript that show the problem, verbatim, in "evidence".
- Improve the skill for its general purpose, not for this one task. If a fix only matters for this run's topic, files, or user, do not propose it.
- Prefer tightening or removing a rule over adding one. A skill that only ever grows gets worse.
- If the skill worked (see its record), keep what made it work; do not over-correct after one bad run.
- Never touch the name, the version, allowed-tools, disallowed-tools, who may invoke the skill, or the frontmatter triggers, exclusions, priority, group, role or model (a person edits those by hand). Change the description only if it is clearly wrong, and then set "changes_description": true.
- Do not propose anything listed under "Already rejected" or "Already pending", even reworded.
- If nothing general can be learned, answer {"proposals": []}. No proposal is better than a weak one.

Edits replace text. "before" is an exact, verbatim excerpt of the current SKILL.md — whole lines, long enough to occur only once. "after" replaces it: to add a step, repeat the line it goes after and append the new line; to remove text, leave out what goes.

Answer with JSON only, in this shape (at most ${max} proposals):
{"proposals": [{"title": "short imperative summary", "change": "add" | "change" | "remove", "target": "step" | "rule" | "example" | "trigger" | "description" | "other", "rationale": "why this helps the skill in general", "evidence": ["verbatim quote from the transcript"], "edits": [{"before": "exact current text", "after": "replacement"}], "changes_description": false}]}`;

export function analysisPrompt(input: AnalysisPromptInput): { system: string; prompt: string } {
  const sections: string[] = [];
  sections.push(`## Skill "${input.name}" (current SKILL.md)\n\n<skill>\n${input.content}\n</skill>`);
  const feedback = input.outcome.feedback?.trim();
  sections.push(
    `## How the run went\n\n${input.outcome.status}${feedback ? ` — user feedback: ${feedback}` : ""}`,
  );

  const record = input.record;
  const recordLines: string[] = [];
  if (record) {
    recordLines.push(
      `- ${record.positive} run(s) recorded as going well (${record.positiveOnCurrent} on the current version); ${record.problems} run(s) analysed for problems; ${record.accepted} improvement(s) accepted, ${record.rejected} rejected.`,
    );
    for (const note of record.positiveNotes) recordLines.push(`- went well: ${note}`);
  }
  for (const flag of input.flags ?? []) recordLines.push(`- ${flag}`);
  if (recordLines.length > 0) sections.push(`## Record of this skill\n\n${recordLines.join("\n")}`);

  if (input.rejected && input.rejected.length > 0) {
    const lines = input.rejected.map((r) => {
      const edits = r.edits.map(
        (e) => `replace ${JSON.stringify(clip(e.before))} with ${JSON.stringify(clip(e.after))}`,
      );
      return `- "${r.title}" (${edits.join("; ")})${r.reason ? ` — rejected because: ${r.reason}` : ""}`;
    });
    sections.push(`## Already rejected (do not propose these again)\n\n${lines.join("\n")}`);
  }
  if (input.pending && input.pending.length > 0) {
    sections.push(`## Already pending (do not repeat)\n\n${input.pending.map((t) => `- "${t}"`).join("\n")}`);
  }
  sections.push(`## Transcript\n\n<transcript>\n${input.transcript}\n</transcript>`);
  return { system: ANALYSIS_SYSTEM(input.maxProposals), prompt: sections.join("\n\n") };
}

const MERGE_SYSTEM = `You apply one approved change to a SKILL.md file (YAML frontmatter plus Markdown instructions).

Output the complete updated file and nothing else: no commentary, no code fences. Apply exactly the change described — its intent, where the quoted text does not match the file exactly — and keep everything else as it is, character for character: frontmatter keys and values, headings, wording, order, blank lines. Never change the name, the version, allowed-tools, disallowed-tools, who may invoke the skill, or the triggers, exclusions, priority, group, role or model; change the description only if the change says so.`;

export function mergePrompt(
  content: string,
  proposal: ImprovementProposal,
): { system: string; prompt: string } {
  const edits = proposal.edits
    .map(
      (e, i) => `${i + 1}. replace:\n<before>\n${e.before}\n</before>\nwith:\n<after>\n${e.after}\n</after>`,
    )
    .join("\n");
  return {
    system: MERGE_SYSTEM,
    prompt: `## Current SKILL.md\n\n<skill>\n${content}\n</skill>\n\n## Approved change: ${proposal.title}\n\nKind: ${proposal.change} (${proposal.target})${proposal.changesDescription ? "; it changes the description" : ""}\nRationale: ${proposal.rationale}\n\nIntended edits:\n${edits}\n\nNow output the complete updated SKILL.md.`,
  };
}

/** The file a merge answer contains: the answer itself, or the inside of one fence around it. */
export function mergedContent(answer: string): string {
  const trimmed = answer.trim();
  const fenced = /^```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n```$/.exec(trimmed);
  const inside = fenced ? fenced[1]! : trimmed;
  const skill = /^<skill>\r?\n([\s\S]*?)\r?\n<\/skill>$/.exec(inside);
  const text = skill ? skill[1]! : inside;
  return text.endsWith("\n") ? text : `${text}\n`;
}

function clip(text: string, max = 160): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
