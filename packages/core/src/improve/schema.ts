/**
 * What the analysis model must answer, and what a stored proposal looks like. The model's
 * JSON uses snake_case (what models write most reliably); stored records are camelCase.
 */
import { z } from "zod";

export const MAX_EDITS_PER_PROPOSAL = 6;

export const ModelEditSchema = z.object({
  before: z.string().min(1, "`before` must quote existing text of the SKILL.md"),
  after: z.string(),
});

export const ModelProposalSchema = z.object({
  title: z.string().trim().min(3).max(160),
  change: z.enum(["add", "change", "remove"]),
  target: z.enum(["step", "rule", "example", "trigger", "description", "other"]).default("other"),
  rationale: z.string().trim().min(10).max(2000),
  evidence: z
    .array(z.string().trim().min(1).max(1000))
    .min(1, "quote at least one passage of the transcript")
    .max(5),
  edits: z.array(ModelEditSchema).min(1).max(MAX_EDITS_PER_PROPOSAL),
  changes_description: z.boolean().default(false),
});

export const ModelAnswerSchema = z.preprocess(
  // A bare list is accepted too: it is unambiguous.
  (value) => (Array.isArray(value) ? { proposals: value } : value),
  z.object({ proposals: z.array(ModelProposalSchema) }),
);

export type ModelProposal = z.infer<typeof ModelProposalSchema>;

export const OutcomeSchema = z.object({
  status: z.enum(["success", "failure", "partial"]),
  feedback: z.string().optional(),
});

export type RunOutcome = z.infer<typeof OutcomeSchema>;

export const ProposalStatusSchema = z.enum(["pending", "accepted", "rejected"]);
export type ProposalStatus = z.infer<typeof ProposalStatusSchema>;

export const StoredProposalSchema = z.object({
  id: z.string(),
  skill: z.string(),
  status: ProposalStatusSchema,
  createdAt: z.string(),
  /** sha256 of the skill file the proposal was made against. */
  baseHash: z.string(),
  baseVersion: z.string().optional(),
  title: z.string(),
  change: z.enum(["add", "change", "remove"]),
  target: z.string(),
  rationale: z.string(),
  evidence: z.array(z.string()),
  /** The messages of the run holding the evidence (each with the one before it), for review. */
  excerpt: z.array(z.object({ role: z.string(), content: z.string() })).optional(),
  edits: z.array(ModelEditSchema),
  changesDescription: z.boolean(),
  /** Whether the edits applied cleanly to the base content; if not, accepting needs a model merge. */
  applicable: z.boolean(),
  outcome: OutcomeSchema,
  decidedAt: z.string().optional(),
  /** Why it was rejected. */
  reason: z.string().optional(),
  result: z
    .object({
      hash: z.string(),
      versionId: z.string(),
      version: z.string().optional(),
      mergedBy: z.enum(["edits", "model", "already-applied"]),
      rebased: z.boolean(),
      flags: z.array(z.string()),
    })
    .optional(),
});

export type ImprovementProposal = z.infer<typeof StoredProposalSchema>;
