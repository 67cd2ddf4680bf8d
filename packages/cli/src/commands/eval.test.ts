import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describeWithSharedData, sharedData } from "@skillshelf/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";

// Real routing cases and the real skills they target (dotnet-marketplace, MIT).
const CASES = sharedData("routing/skill-trigger-cases/");
const SKILLS = path.join(CASES, "plugins/dotnet-artisan/skills");
const SMOKE = path.join(CASES, "tests/copilot-smoke/cases.jsonl");
let root: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-eval-")));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const shelfArgs = () => ["--project", SKILLS, "--user", path.join(root, "none")];

describeWithSharedData("skillshelf eval", () => {
  it("reports recall@k, none-accuracy and confusions on real cases", async () => {
    const c = capture(root);
    expect(await main(["eval", SMOKE, ...shelfArgs()], c.ctx)).toBe(0);
    expect(c.out()).toMatch(
      /^28 cases\npositives: 23 {2}recall@1 [\d.]+% {2}recall@3 [\d.]+% {2}recall@5 [\d.]+%\nnothing applies: 5 {2}left alone \d \([\d.]+%\)/mu,
    );
    expect(c.out()).toContain("confusions (expected → ranked first):");
  });

  it("prints the full report as JSON", async () => {
    const c = capture(root);
    await main(["eval", SMOKE, "--json", ...shelfArgs()], c.ctx);
    const report = JSON.parse(c.out());
    expect(report.positives).toBe(23);
    expect(report.none.cases).toBe(5);
    expect(report.recallAt3).toBeGreaterThan(0.5);
  });

  it("reads {query, should_trigger} cases with --skill, and gates CI with --fail-under", async () => {
    const file = path.join(root, "one-skill.jsonl");
    await fs.writeFile(
      file,
      [
        '{"query": "Set up GitHub Actions to build and test my .NET solution", "should_trigger": true}',
        '{"query": "Explain how Git rebase differs from merge", "should_trigger": false}',
      ].join("\n"),
    );
    const c = capture(root);
    expect(await main(["eval", file, "--skill", "dotnet-devops", ...shelfArgs()], c.ctx)).toBe(0);
    expect(c.out()).toContain("positives: 1");
    expect(c.out()).toContain("should not trigger: 1");
    const gate = capture(root);
    expect(
      await main(
        ["eval", file, "--skill", "dotnet-devops", "--fail-under", "1.01", ...shelfArgs()],
        gate.ctx,
      ),
    ).toBe(2);
    const strict = capture(root);
    expect(
      await main(
        [
          "eval",
          file,
          "--skill",
          "dotnet-devops",
          "--min-score",
          "0.99",
          "--fail-under",
          "0.5",
          ...shelfArgs(),
        ],
        strict.ctx,
      ),
    ).toBe(1);
    expect(strict.err()).toContain("recall@3 0.0% is under 50.0%");
  });

  it("fails on a malformed line even when other lines are good (a skipped case is a wrong score)", async () => {
    const file = path.join(root, "mixed.jsonl");
    await fs.writeFile(
      file,
      [
        '{"query": "Set up GitHub Actions to build and test my .NET solution", "should_trigger": true}',
        '{"query": "Explain how Git rebase differs from merge", "should_trigger": fals}',
      ].join("\n"),
    );
    const c = capture(root);
    expect(await main(["eval", file, "--skill", "dotnet-devops", ...shelfArgs()], c.ctx)).toBe(2);
    expect(c.err()).toContain(`${file}:2: not valid JSON`);
    expect(c.out()).toBe("");
  });

  it("reports bad lines with their number and fails on a file with no usable case", async () => {
    const file = path.join(root, "bad.jsonl");
    await fs.writeFile(file, '{"message": "hi", "expect": 3}\nnot json\n');
    const c = capture(root);
    expect(await main(["eval", file, ...shelfArgs()], c.ctx)).toBe(2);
    expect(c.err()).toContain(`${file}:1:`);
    expect(c.err()).toContain(`${file}:2: not valid JSON`);
    const missing = capture(root);
    expect(await main(["eval", path.join(root, "nope.jsonl")], missing.ctx)).toBe(2);
    expect(missing.err()).toContain("cannot read");
  });

  it("warns about skills the shelf does not have", async () => {
    const file = path.join(root, "unknown.jsonl");
    await fs.writeFile(file, '{"message": "deploy", "expect": "no-such-skill"}\n');
    const c = capture(root);
    await main(["eval", file, ...shelfArgs()], c.ctx);
    expect(c.err()).toContain("cases name skills this shelf does not have: no-such-skill");
  });
});
