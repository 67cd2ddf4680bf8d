/**
 * The user-confirmed improvement loop: analyse a run → pending proposals → the user
 * accepts (merge, guards, managed write) or rejects (reason kept, shown to later
 * analyses). Runs that went well are recorded too, so the loop does not only ever hear
 * about failures. Every decision lands in the ledger with the skill's sha256 before and
 * after.
 *
 * Merging: a proposal carries exact before → after edits, applied deterministically (what
 * the user reviewed is what gets written; no model needed — the CLI accepts this way).
 * Only a proposal whose edits did not apply as written needs the model to merge it.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { sha256 } from "../history/hash.js";
import type { LedgerRecord } from "../history/ledger.js";
import { readVersion } from "../history/version-bump.js";
import type { SkillStore, WriteResult } from "../history/writer.js";
import type { Generate, ParseOptions, ParseResult, SkillSource } from "../types.js";
import { type AnalyzeRunResult, analyzeRun } from "./analyze.js";
import { applyEdits, editsAlreadyApplied } from "./apply-edits.js";
import { ImproveError } from "./errors.js";
import { evidenceExcerpt } from "./evidence-excerpt.js";
import { bloatFlags, checkMerge, type GuardLimits, type MergeCheck } from "./guards.js";
import { mergedContent, mergePrompt, type SkillRecord, type Transcript } from "./prompts.js";
import { createProposalStore, newProposalId, type ProposalStore } from "./proposal-store.js";
import type { ImprovementProposal, ProposalStatus, RunOutcome } from "./schema.js";

export interface ImprovementsOptions {
  source: SkillSource;
  /** The managed-write store (history, ledger) accepted proposals are written through. */
  store: SkillStore;
  /** skillshelf's state folder; proposals live in `<stateDir>/improvements/` unless `proposals` is given. */
  stateDir: string;
  /** Where proposals are kept (a shared state store's); default files under `stateDir`. */
  proposals?: ProposalStore;
  /** The default model for analyses and fallback merges (each call may pass its own). */
  generate?: Generate;
  limits?: Partial<GuardLimits>;
  /** Proposals kept per analysis (default 3). */
  maxProposals?: number;
  parse?: (text: string, options: ParseOptions) => ParseResult;
}

export interface AnalyzeOptions {
  skill: string;
  transcript: Transcript;
  outcome: RunOutcome | RunOutcome["status"];
  generate?: Generate;
  signal?: AbortSignal;
}

export interface AnalyzeResult {
  /** Stored as pending, waiting for the user. */
  proposals: ImprovementProposal[];
  dropped: AnalyzeRunResult["dropped"];
}

export interface Preview {
  proposal: ImprovementProposal;
  /** The skill changed since the proposal was made. */
  stale: boolean;
  /** The edits apply to the current file (accepting needs no model). */
  applicable: boolean;
  /** The merged file, when the edits apply. */
  merged?: string;
  diff?: string;
  check?: MergeCheck;
  flags: string[];
  record: SkillRecord;
}

export interface AcceptOptions {
  /** Model for a fallback merge (default: the one given at creation). */
  generate?: Generate;
  /** `edits`: deterministic only; `model`: always ask the model; `auto` (default): edits, else the model. */
  merge?: "auto" | "edits" | "model";
  signal?: AbortSignal;
}

export interface AcceptResult {
  proposal: ImprovementProposal;
  /** Undefined when the change was already in the file (an accept interrupted earlier). */
  write?: WriteResult;
  check?: MergeCheck;
  mergedBy: "edits" | "model" | "already-applied";
  /** Applied to a newer version of the skill than it was made against. */
  rebased: boolean;
  /** Warnings that did not stop the accept (e.g. instruction bloat across proposals). */
  flags: string[];
}

export interface Improvements {
  /** Asks the model about a run; stores what it proposes as pending. A run that went well is recorded as positive evidence too. */
  analyze(options: AnalyzeOptions): Promise<AnalyzeResult>;
  list(filter?: { skill?: string; status?: ProposalStatus }): Promise<ImprovementProposal[]>;
  /** By full id, or a unique prefix or suffix of one. */
  get(id: string): Promise<ImprovementProposal>;
  /** What accepting would write, and whether the guards allow it; writes nothing. */
  preview(id: string): Promise<Preview>;
  accept(id: string, options?: AcceptOptions): Promise<AcceptResult>;
  reject(id: string, reason: string): Promise<ImprovementProposal>;
  /** Records a run that went well as evidence for the current version (no model call). */
  recordPositive(skill: string, options?: { note?: string }): Promise<LedgerRecord>;
  /** What the ledger knows about a skill's runs and decisions. */
  record(skill: string): Promise<SkillRecord>;
}

const REJECTED_SHOWN = 20;
const POSITIVE_NOTES_SHOWN = 3;

export function createImprovements(options: ImprovementsOptions): Improvements {
  const proposals: ProposalStore =
    options.proposals ?? createProposalStore(join(options.stateDir, "improvements"));
  const { store } = options;

  async function current(name: string): Promise<{ content: string; hash: string }> {
    const skill = options.source.get(name);
    if (!skill || skill.scope === "builtin") {
      throw new ImproveError("NOT_FOUND", `no skill "${name}" with a file to improve`, { skill: name });
    }
    const bytes = await readFile(skill.file);
    return { content: bytes.toString("utf8"), hash: sha256(bytes) };
  }

  async function record(name: string): Promise<SkillRecord> {
    const [{ records }, hash] = await Promise.all([
      store.ledger.read({ skill: name }),
      current(name).then(
        (c) => c.hash,
        () => undefined,
      ),
    ]);
    const positives = records.filter((r) => r.type === "positive");
    return {
      positive: positives.length,
      positiveOnCurrent: positives.filter((r) => r.after === hash).length,
      problems: records.filter((r) => r.type === "analyzed" && r.note !== "success").length,
      accepted: records.filter((r) => r.type === "accepted").length,
      rejected: records.filter((r) => r.type === "rejected").length,
      positiveNotes: positives
        .map((r) => r.note)
        .filter((n): n is string => Boolean(n))
        .slice(-POSITIVE_NOTES_SHOWN),
    };
  }

  async function growthFlags(name: string, next?: { before: number; after: number }): Promise<string[]> {
    const { records } = await store.ledger.read({ skill: name, types: ["accepted"] });
    const sizes = records.flatMap((r) => (r.tokens ? [r.tokens] : []));
    return bloatFlags(next ? [...sizes, next] : sizes, options.limits);
  }

  function requireGenerate(generate: Generate | undefined, why: string): Generate {
    const model = generate ?? options.generate;
    if (!model) throw new ImproveError("NEEDS_MODEL", why);
    return model;
  }

  function guard(name: string, before: string, after: string, proposal: ImprovementProposal): MergeCheck {
    return checkMerge({
      name,
      before,
      after,
      changesDescription: proposal.changesDescription,
      limits: options.limits,
      parse: options.parse,
    });
  }

  return {
    record,

    async analyze(input) {
      const generate = requireGenerate(
        input.generate,
        "analysis needs a model: pass `generate` (each adapter provides one for its framework)",
      );
      const { content, hash } = await current(input.skill);
      const all = (await proposals.list()).proposals.filter((p) => p.skill === input.skill);
      const rejected = all.filter((p) => p.status === "rejected").slice(0, REJECTED_SHOWN);
      const outcome = typeof input.outcome === "string" ? { status: input.outcome } : input.outcome;

      const result = await analyzeRun({
        skill: { name: input.skill, content },
        transcript: input.transcript,
        outcome,
        generate,
        rejected: rejected.map((p) => ({ title: p.title, edits: p.edits, reason: p.reason })),
        pending: all.filter((p) => p.status === "pending").map((p) => p.title),
        record: await record(input.skill),
        flags: await growthFlags(input.skill),
        maxProposals: options.maxProposals,
        limits: options.limits,
        parse: options.parse,
        signal: input.signal,
      });

      const now = new Date();
      const stored: ImprovementProposal[] = [];
      for (const proposal of result.proposals) {
        const record: ImprovementProposal = {
          id: newProposalId(now),
          skill: input.skill,
          status: "pending",
          createdAt: now.toISOString(),
          baseHash: hash,
          ...(readVersion(content) ? { baseVersion: readVersion(content) } : {}),
          title: proposal.title,
          change: proposal.change,
          target: proposal.target,
          rationale: proposal.rationale,
          evidence: proposal.evidence,
          excerpt: evidenceExcerpt(input.transcript, proposal.evidence),
          edits: proposal.edits,
          changesDescription: proposal.changesDescription,
          applicable: proposal.applicable,
          outcome,
        };
        await proposals.save(record);
        await store.ledger.append({
          type: "proposed",
          skill: input.skill,
          before: hash,
          after: hash,
          proposal: record.id,
          note: record.title,
        });
        stored.push(record);
      }
      await store.ledger.append({
        type: "analyzed",
        skill: input.skill,
        before: hash,
        after: hash,
        note: outcome.status,
        ...(outcome.feedback ? { reason: outcome.feedback } : {}),
      });
      if (outcome.status === "success") {
        await store.ledger.append({
          type: "positive",
          skill: input.skill,
          before: hash,
          after: hash,
          note: outcome.feedback ?? "analysed run went well",
        });
      }
      return { proposals: stored, dropped: result.dropped };
    },

    async list(filter = {}) {
      return (await proposals.list()).proposals.filter(
        (p) =>
          (filter.skill === undefined || p.skill === filter.skill) &&
          (filter.status === undefined || p.status === filter.status),
      );
    },

    get: (id) => proposals.load(id),

    async preview(id) {
      const proposal = await proposals.load(id);
      const { content, hash } = await current(proposal.skill);
      const applied = applyEdits(content, proposal.edits);
      const preview: Preview = {
        proposal,
        stale: hash !== proposal.baseHash,
        applicable: applied.ok,
        flags: [],
        record: await record(proposal.skill),
      };
      if (applied.ok) {
        preview.merged = applied.text;
        preview.check = guard(proposal.skill, content, applied.text, proposal);
        const { createTwoFilesPatch } = await import("diff");
        preview.diff = createTwoFilesPatch(
          `${proposal.skill}@current`,
          `${proposal.skill}@proposal-${proposal.id}`,
          content,
          applied.text,
        );
        if (preview.check.stats) {
          preview.flags = await growthFlags(proposal.skill, {
            before: preview.check.stats.tokensBefore,
            after: preview.check.stats.tokensAfter,
          });
        }
      }
      return preview;
    },

    async accept(id, acceptOptions = {}) {
      return proposals.update(id, async (proposal) => {
        if (proposal.status !== "pending") {
          throw new ImproveError(
            "NOT_PENDING",
            `proposal ${proposal.id} was already ${proposal.status}${proposal.decidedAt ? ` at ${proposal.decidedAt}` : ""}`,
            { id: proposal.id, status: proposal.status },
          );
        }
        const name = proposal.skill;
        const { content, hash } = await current(name);
        const rebased = hash !== proposal.baseHash;
        const mode = acceptOptions.merge ?? "auto";
        const applied = applyEdits(content, proposal.edits);

        let merged: string;
        let mergedBy: AcceptResult["mergedBy"];
        if (applied.ok && mode !== "model") {
          merged = applied.text;
          mergedBy = "edits";
        } else if (!applied.ok && rebased && editsAlreadyApplied(content, proposal.edits)) {
          // Accepted before by a process that stopped before it could say so.
          const done = await decide(proposal, "accepted", {
            result: { hash, versionId: "current", mergedBy: "already-applied", rebased, flags: [] },
          });
          await store.ledger.append({
            type: "accepted",
            skill: name,
            before: hash,
            after: hash,
            proposal: proposal.id,
            note: "already applied",
          });
          return { proposal: done, mergedBy: "already-applied", rebased, flags: [] };
        } else if (!applied.ok && rebased) {
          // Re-based only where the proposal's target text still applies; otherwise refused.
          throw new ImproveError(
            "STALE",
            `${name} changed since proposal ${proposal.id} was made, and the text it edits is no longer there; reject it, or run the analysis again on the current version`,
            { id: proposal.id, baseHash: proposal.baseHash, currentHash: hash, problems: applied.problems },
          );
        } else if (mode === "edits") {
          throw new ImproveError(
            "NEEDS_MODEL",
            `the edits of proposal ${proposal.id} do not apply to ${name} as written; accepting it needs a model merge (accept it from your app with a \`generate\` function) or an edit by hand`,
            { id: proposal.id, problems: applied.ok ? [] : applied.problems },
          );
        } else {
          const generate = requireGenerate(
            acceptOptions.generate,
            `the edits of proposal ${proposal.id} do not apply as written, so a model must merge it: pass \`generate\``,
          );
          const { system, prompt } = mergePrompt(content, proposal);
          merged = mergedContent(await generate({ system, prompt, signal: acceptOptions.signal }));
          mergedBy = "model";
        }

        const check = guard(name, content, merged, proposal);
        if (!check.ok) {
          throw new ImproveError(
            "GUARD_FAILED",
            `proposal ${proposal.id} was not applied: ${check.violations.map((v) => `${v.guard}: ${v.message}`).join("; ")}; nothing was written`,
            { id: proposal.id, violations: check.violations, stats: check.stats, mergedBy },
          );
        }
        const tokens = { before: check.stats!.tokensBefore, after: check.stats!.tokensAfter };
        const flags = await growthFlags(name, tokens);
        const write = await store.commit(name, merged, {
          expectedHash: hash,
          type: "accepted",
          record: { proposal: proposal.id, tokens, ...(flags.length > 0 ? { flags } : {}) },
        });
        const done = await decide(proposal, "accepted", {
          result: {
            hash: write.hash,
            versionId: write.versionId,
            ...(write.version ? { version: write.version } : {}),
            mergedBy,
            rebased,
            flags,
          },
        });
        return { proposal: done, write, check, mergedBy, rebased, flags };
      });
    },

    async reject(id, reason) {
      return proposals.update(id, async (proposal) => {
        if (proposal.status !== "pending") {
          throw new ImproveError("NOT_PENDING", `proposal ${proposal.id} was already ${proposal.status}`, {
            id: proposal.id,
            status: proposal.status,
          });
        }
        const hash = await current(proposal.skill).then(
          (c) => c.hash,
          () => null,
        );
        const done = await decide(proposal, "rejected", { reason: reason.trim() });
        await store.ledger.append({
          type: "rejected",
          skill: proposal.skill,
          before: hash,
          after: hash,
          proposal: proposal.id,
          reason: reason.trim(),
          note: proposal.title,
        });
        return done;
      });
    },

    async recordPositive(name, positiveOptions = {}) {
      const { content, hash } = await current(name);
      const version = readVersion(content);
      return store.ledger.append({
        type: "positive",
        skill: name,
        before: hash,
        after: hash,
        ...(version ? { version } : {}),
        ...(positiveOptions.note ? { note: positiveOptions.note } : {}),
      });
    },
  };

  async function decide(
    proposal: ImprovementProposal,
    status: "accepted" | "rejected",
    extra: Partial<ImprovementProposal>,
  ): Promise<ImprovementProposal> {
    const decided: ImprovementProposal = {
      ...proposal,
      ...extra,
      status,
      decidedAt: new Date().toISOString(),
    };
    await proposals.save(decided);
    return decided;
  }
}
