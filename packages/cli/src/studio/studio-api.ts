/**
 * The studio's JSON API: each route a thin call into core's public API — the same calls the
 * `list`, `match`, `catalog`, `improve`, `history`, `diff` and `rollback` commands make. A
 * skill or proposal is named by what those commands take (a name, an id, a version
 * reference), never by a path, so nothing outside the shelf can be read through it.
 */
import { createFileStateStore, estimateTokens, type Shelf } from "@skillshelf/core";
import { describeReason } from "../commands/match.js";
import { shelfOverview } from "./shelf-overview.js";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface StudioApiOptions {
  shelf: Shelf;
  /** Home folder: where user skills and the trust file are looked up. */
  home: string | undefined;
  /** The catalog budget the Match explorer shows the catalog against. */
  budgetTokens: number;
}

export type Query = URLSearchParams;
export type Body = Record<string, unknown>;

interface Route {
  changesState: boolean;
  handle(input: { query: Query; body: Body }): Promise<unknown>;
}

const MAX_MESSAGE_LENGTH = 10_000;

function text(value: unknown, field: string, maxLength = 1_000): string {
  if (typeof value !== "string" || value.trim() === "") throw new ApiError(400, `${field} is required`);
  if (value.length > maxLength) throw new ApiError(400, `${field} is longer than ${maxLength} characters`);
  return value;
}

function optionalText(value: unknown, field: string): string | undefined {
  return value === undefined || value === null || value === "" ? undefined : text(value, field);
}

export function createStudioApi(options: StudioApiOptions): ReadonlyMap<string, Route> {
  const { shelf } = options;
  // Read only: the ledger the shelf's managed writes append to, in the state folder it was given.
  const stateDir = shelf.options.stateDir;
  if (stateDir === undefined) throw new Error("the studio needs a shelf opened with an explicit stateDir");
  const { ledger } = createFileStateStore({ dir: stateDir });

  const routes: Record<string, Route> = {
    "/api/shelf": {
      changesState: false,
      handle: () => shelfOverview(shelf, options.home),
    },
    "/api/match": {
      changesState: false,
      async handle({ query }) {
        const message = text(query.get("message"), "message", MAX_MESSAGE_LENGTH);
        const result = shelf.match(message, { limit: 10, includeHidden: query.get("hidden") === "1" });
        // The catalog from a real session's plan, as `skillshelf catalog` takes it: what hosts send.
        const plan = shelf.session().plan({ tools: [], message });
        return {
          // Each reason also in the words `skillshelf match` prints it with.
          result: {
            ...result,
            candidates: result.candidates.map((c) => ({ ...c, why: c.reasons.map(describeReason) })),
          },
          skills: shelf.skills().length,
          catalog: {
            text: plan.system,
            tokens: estimateTokens(plan.system),
            budget: options.budgetTokens,
            candidates: plan.candidates.map((c) => c.name),
          },
        };
      },
    },
    "/api/improvements": {
      changesState: false,
      async handle() {
        const all = await shelf.improvements.list();
        const pending = await Promise.all(
          all
            .filter((p) => p.status === "pending")
            .map(async (proposal) => {
              try {
                return await shelf.improvements.preview(proposal.id);
              } catch (error) {
                // A proposal whose skill is gone still shows, with why it cannot be previewed.
                return { proposal, error: (error as Error).message };
              }
            }),
        );
        return { pending, decided: all.filter((p) => p.status !== "pending") };
      },
    },
    "/api/improvements/accept": {
      changesState: true,
      async handle({ body }) {
        const result = await shelf.improvements.accept(text(body.id, "id"), { merge: "edits" });
        return {
          proposal: result.proposal,
          version: result.write?.version,
          mergedBy: result.mergedBy,
          rebased: result.rebased,
          flags: result.flags,
          notes: result.write?.notes ?? [],
        };
      },
    },
    "/api/improvements/reject": {
      changesState: true,
      async handle({ body }) {
        const reason = text(body.reason, "reason", 2_000).trim();
        return { proposal: await shelf.improvements.reject(text(body.id, "id"), reason) };
      },
    },
    "/api/history": {
      changesState: false,
      async handle({ query }) {
        const name = text(query.get("skill"), "skill");
        const versions = await shelf.history(name);
        return { name, file: shelf.get(name)?.file, versions };
      },
    },
    "/api/diff": {
      changesState: false,
      async handle({ query }) {
        const name = text(query.get("skill"), "skill");
        const a = text(query.get("a"), "a");
        const b = optionalText(query.get("b"), "b") ?? "current";
        return { name, a, b, patch: await shelf.diff(name, a, b) };
      },
    },
    "/api/rollback": {
      changesState: true,
      async handle({ body }) {
        const name = text(body.skill, "skill");
        const expectedHash = optionalText(body.expectedHash, "expectedHash");
        return await shelf.rollback(name, text(body.ref, "ref"), expectedHash ? { expectedHash } : {});
      },
    },
    "/api/ledger": {
      changesState: false,
      async handle({ query }) {
        const skill = optionalText(query.get("skill"), "skill");
        const read = await ledger.read(skill ? { skill } : {});
        // Newest first, as the timeline reads.
        return { records: [...read.records].reverse(), malformedLines: read.malformedLines };
      },
    },
  };
  return new Map(Object.entries(routes));
}
