/**
 * analyzeRun: one model call that turns a run of a skill into improvement proposals.
 * Pure: it reads nothing and writes nothing (the improvements store persists what it
 * returns). The model's answer must be the JSON the schema asks for, else a clear
 * INVALID_MODEL_OUTPUT error; each proposal is then checked, and dropped with a reason
 * when its evidence is not in the transcript, it repeats a rejected idea, or applying it
 * would break a guard.
 */
import type { Generate, ParseOptions, ParseResult } from "../types.js";
import { applyEdits } from "./apply-edits.js";
import { ImproveError } from "./errors.js";
import { extractJson } from "./extract-json.js";
import { checkMerge, type GuardLimits, type MergeCheck } from "./guards.js";
import {
  analysisPrompt,
  type RejectedIdea,
  type SkillRecord,
  type Transcript,
  transcriptText,
} from "./prompts.js";
import { ModelAnswerSchema, type ModelProposal, OutcomeSchema, type RunOutcome } from "./schema.js";

export interface AnalyzeRunInput {
  /** The skill as it is now: its name and its exact SKILL.md text. */
  skill: { name: string; content: string };
  transcript: Transcript;
  outcome: RunOutcome | RunOutcome["status"];
  generate: Generate;
  /** Ideas the user rejected before: shown to the model, and dropped if proposed again. */
  rejected?: readonly RejectedIdea[];
  /** Titles of proposals still waiting for the user. */
  pending?: readonly string[];
  record?: SkillRecord;
  flags?: readonly string[];
  /** At most this many proposals are kept (default 3). */
  maxProposals?: number;
  limits?: Partial<GuardLimits>;
  parse?: (text: string, options: ParseOptions) => ParseResult;
  signal?: AbortSignal;
}

export interface AnalyzedProposal {
  title: string;
  change: ModelProposal["change"];
  target: ModelProposal["target"];
  rationale: string;
  /** Quotes found in the transcript (quotes the model made up are removed). */
  evidence: string[];
  edits: ModelProposal["edits"];
  changesDescription: boolean;
  /** The edits apply to the current text as written; false = accepting needs a model merge. */
  applicable: boolean;
  /** Guard check of the deterministic merge, when the edits apply. */
  check?: MergeCheck;
}

export interface AnalyzeRunResult {
  proposals: AnalyzedProposal[];
  dropped: Array<{ title: string; reason: string }>;
  /** The model's answer, as received. */
  raw: string;
}

export const DEFAULT_MAX_PROPOSALS = 3;

export async function analyzeRun(input: AnalyzeRunInput): Promise<AnalyzeRunResult> {
  const outcome = OutcomeSchema.parse(
    typeof input.outcome === "string" ? { status: input.outcome } : input.outcome,
  );
  const maxProposals = input.maxProposals ?? DEFAULT_MAX_PROPOSALS;
  const transcript = transcriptText(input.transcript);
  const { system, prompt } = analysisPrompt({
    name: input.skill.name,
    content: input.skill.content,
    transcript,
    outcome,
    rejected: input.rejected,
    pending: input.pending,
    record: input.record,
    flags: input.flags,
    maxProposals,
  });

  const raw = await input.generate({ system, prompt, signal: input.signal });
  const answer = parseAnswer(raw);

  const fullTranscript = normalise(transcriptText(input.transcript, Number.POSITIVE_INFINITY));
  const rejectedKeys = new Set((input.rejected ?? []).flatMap((r) => [titleKey(r.title), editsKey(r.edits)]));
  const pendingKeys = new Set((input.pending ?? []).map(titleKey));
  const proposals: AnalyzedProposal[] = [];
  const dropped: AnalyzeRunResult["dropped"] = [];

  for (const proposal of answer.proposals) {
    const drop = (reason: string) => dropped.push({ title: proposal.title, reason });
    const evidence = proposal.evidence.filter((quote) => fullTranscript.includes(normalise(quote)));
    if (evidence.length === 0) {
      drop("none of its evidence quotes appear in the transcript");
      continue;
    }
    if (rejectedKeys.has(titleKey(proposal.title)) || rejectedKeys.has(editsKey(proposal.edits))) {
      drop("the user already rejected this idea");
      continue;
    }
    if (pendingKeys.has(titleKey(proposal.title))) {
      drop("the same proposal is already pending");
      continue;
    }
    const applied = applyEdits(input.skill.content, proposal.edits);
    let check: MergeCheck | undefined;
    if (applied.ok) {
      if (applied.text === input.skill.content) {
        drop("its edits change nothing");
        continue;
      }
      check = checkMerge({
        name: input.skill.name,
        before: input.skill.content,
        after: applied.text,
        changesDescription: proposal.changes_description,
        limits: input.limits,
        parse: input.parse,
      });
      if (!check.ok) {
        drop(`it would fail a guard: ${check.violations.map((v) => v.message).join("; ")}`);
        continue;
      }
    }
    if (proposals.length >= maxProposals) {
      drop(`more than ${maxProposals} proposals in one run`);
      continue;
    }
    proposals.push({
      title: proposal.title,
      change: proposal.change,
      target: proposal.target,
      rationale: proposal.rationale,
      evidence,
      edits: proposal.edits,
      changesDescription: proposal.changes_description,
      applicable: applied.ok,
      ...(check ? { check } : {}),
    });
  }
  return { proposals, dropped, raw };
}

function parseAnswer(raw: string) {
  const json = extractJson(raw);
  if (!json.ok) {
    throw new ImproveError(
      "INVALID_MODEL_OUTPUT",
      `the model's analysis is not usable JSON: ${json.error}; nothing was recorded`,
      { raw },
    );
  }
  const parsed = ModelAnswerSchema.safeParse(json.value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new ImproveError(
      "INVALID_MODEL_OUTPUT",
      `the model's analysis does not match the proposal schema (${issues.slice(0, 5).join("; ")}${issues.length > 5 ? `; and ${issues.length - 5} more` : ""}); nothing was recorded`,
      { raw, issues },
    );
  }
  return parsed.data;
}

/** Quotes match across whitespace, case and typographic quote differences. */
function normalise(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

function titleKey(title: string): string {
  return `title:${normalise(title).replace(/[^\p{L}\p{N} ]/gu, "")}`;
}

function editsKey(edits: ReadonlyArray<{ before: string; after: string }>): string {
  return `edits:${edits.map((e) => `${normalise(e.before)}→${normalise(e.after)}`).join("|")}`;
}
