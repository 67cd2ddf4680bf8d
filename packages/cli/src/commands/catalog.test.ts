import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";

let root: string;
const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\nBody.\n`;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-catalog-")));
  for (let i = 0; i < 40; i++) {
    const name = `topic-${String(i).padStart(2, "0")}`;
    await fs.mkdir(path.join(root, ".skillshelf/skills", name), { recursive: true });
    await fs.writeFile(
      path.join(root, ".skillshelf/skills", name, "SKILL.md"),
      skill(name, `Handles topic number ${i} with care, in several long and detailed steps that take words.`),
    );
  }
  await fs.mkdir(path.join(root, ".skillshelf/skills/deploy-prod"), { recursive: true });
  await fs.writeFile(
    path.join(root, ".skillshelf/skills/deploy-prod/SKILL.md"),
    skill("deploy-prod", "Deploy the application to production with the release checklist."),
  );
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe("skillshelf catalog", () => {
  it("prints the system text on stdout and its token count on stderr", async () => {
    const c = capture(root, { home: path.join(root, "nohome") });
    expect(await main(["catalog"], c.ctx)).toBe(0);
    expect(c.out()).toContain("- deploy-prod: Deploy the application to production");
    expect(c.err()).toMatch(/— \d+ tokens \(estimate\) of a 4000-token budget/u);
  });

  it("puts the message's candidates first", async () => {
    const c = capture(root, { home: path.join(root, "nohome") });
    await main(["catalog", "--message", "deploy to production please", "--json"], c.ctx);
    const json = JSON.parse(c.out());
    expect(json.candidates[0]).toBe("deploy-prod");
    const lines = (json.text as string).split("\n").filter((l) => l.startsWith("- "));
    expect(lines[0]).toMatch(/^- deploy-prod:/u);
  });

  it("falls back to names only within a small budget, and says how many were left out", async () => {
    const c = capture(root, { home: path.join(root, "nohome") });
    await main(["catalog", "--budget", "300", "--json"], c.ctx);
    const json = JSON.parse(c.out());
    expect(json.tokens).toBeLessThanOrEqual(300 + 60); // the plan may add a line around the catalog
    expect(json.text).toMatch(/name only|more skill/u);
  });

  it("rejects a bad budget", async () => {
    const c = capture(root);
    expect(await main(["catalog", "--budget", "lots"], c.ctx)).toBe(2);
  });
});
