import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createShelf } from "../shelf.js";

// A deterministic stand-in for an embedding model: texts about the same concept get the same
// direction, whatever words they use. Enough to prove the path from `embed` to a candidate.
const CONCEPTS: Array<[RegExp, number]> = [
  [/invoice|bill|receipt|expense|reimburs/i, 0],
  [/weather|forecast|rain|umbrella/i, 1],
];
async function embed(texts: string[]): Promise<number[][]> {
  return texts.map((text) => {
    const vector = [0, 0, 0.05];
    for (const [pattern, axis] of CONCEPTS) if (pattern.test(text)) vector[axis] = 1;
    return vector;
  });
}

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function shelfWith(withEmbed: boolean) {
  const root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-embed-"));
  roots.push(root);
  const dir = path.join(root, ".skillshelf", "skills", "expenses");
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, "SKILL.md"),
    "---\nname: expenses\ndescription: File an expense report from invoices and receipts.\n---\nFile it.\n",
  );
  return createShelf({ root, userDirs: [], events: false, ...(withEmbed && { matcher: { embed } }) });
}

describe("the embedding signal reaches the plan", () => {
  // "Can I get my money back for the taxi?" shares no word with the skill; only the embedding
  // (reimbursement ≈ expense) connects them.
  const paraphrase = "Can I get reimbursed for the taxi I took yesterday?";

  it("makes a paraphrase with no word in common a candidate through openSession", async () => {
    const shelf = await shelfWith(true);
    const plan = (await shelf.openSession({ message: paraphrase, tools: [] })).plan();
    expect(plan.candidates.map((c) => c.name)).toEqual(["expenses"]);
    expect(plan.candidates[0]?.reasons.some((r) => r.kind === "semantic")).toBe(true);
    expect(plan.tools.map((t) => t.name)).toContain("skill_expenses");
  });

  it("is absent without embed (the lexical stage finds nothing)", async () => {
    const shelf = await shelfWith(false);
    const plan = (await shelf.openSession({ message: paraphrase, tools: [] })).plan();
    expect(plan.candidates).toEqual([]);
  });
});
