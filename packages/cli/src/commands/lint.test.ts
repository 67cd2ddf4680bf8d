import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { itWithSharedData, sharedData } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";
import type { LintReport } from "./lint.js";
import { LONG_BODY_LINES } from "./lint-rules.js";

const DATA = sharedData();

async function tempDir(): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-lint-")));
}

async function write(root: string, name: string, text: string): Promise<void> {
  const file = path.join(root, name, "SKILL.md");
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

async function lintJson(cwd: string, ...args: string[]): Promise<{ code: number; report: LintReport }> {
  const cap = capture(cwd);
  const code = await main(["lint", "--json", ...args], cap.ctx);
  return { code, report: JSON.parse(cap.out()) as LintReport };
}

const codesOf = (report: LintReport, file: string) =>
  report.findings.filter((f) => f.file === file).map((f) => f.code);

/** A skill that routes well: a boundary, a trigger signal, an exclusion. */
const WEATHER = `---
name: weather
description: Current temperature, rain and wind for a named city; not clothing or travel advice.
triggers:
  - weather forecast
exclusions:
  - what should I wear
examples:
  - Will it rain in Beijing tomorrow?
---

1. Ask for the city when none is given.
`;

describe("skillshelf lint", () => {
  it("flags the seed's vague one-liner (查询天气) at its description line, not a layered description", async () => {
    const root = await tempDir();
    await write(root, "vague", "---\nname: vague\ndescription: 查询天气\n---\n\nBody.\n");
    await write(root, "weather", WEATHER);
    const { code, report } = await lintJson(root);
    expect(code).toBe(0);
    const vague = report.findings.find((f) => f.code === "vague-description");
    expect(vague).toMatchObject({ file: "vague/SKILL.md", line: 3, severity: "warning" });
    expect(vague?.hint).toBeTruthy();
    expect(codesOf(report, "vague/SKILL.md")).toContain("missing-exclusions");
    expect(codesOf(report, "weather/SKILL.md")).toEqual([]);
  });

  it("missing exclusions: a 'Not for' clause counts; skills the model never starts are not asked for one", async () => {
    const root = await tempDir();
    await write(
      root,
      "plain",
      "---\nname: plain\ndescription: Formats SQL queries when the user pastes one and asks for it tidied.\n---\nBody.\n",
    );
    await write(
      root,
      "clause",
      "---\nname: clause\ndescription: Formats Python files when asked. Not for notebooks or other languages.\n---\nBody.\n",
    );
    await write(
      root,
      "manual",
      "---\nname: manual\ndescription: Deletes build outputs when the user runs it by hand.\ndisable-model-invocation: true\n---\nBody.\n",
    );
    const { report } = await lintJson(root);
    expect(codesOf(report, "plain/SKILL.md")).toEqual(["missing-exclusions"]);
    expect(codesOf(report, "clause/SKILL.md")).toEqual([]);
    expect(codesOf(report, "manual/SKILL.md")).toEqual([]);
  });

  it(`a body over ${LONG_BODY_LINES} lines must open with its rules`, async () => {
    const root = await tempDir();
    const prose = Array.from({ length: LONG_BODY_LINES + 5 }, (_, i) => `Background paragraph ${i}.`).join(
      "\n",
    );
    const head = (name: string) =>
      `---\nname: ${name}\ndescription: Reviews pull requests when asked. Not for commit messages.\n---\n\n`;
    await write(
      root,
      "buried",
      `${head("buried")}# Review\n\n${prose}\n\n1. Never approve your own change.\n`,
    );
    await write(root, "first", `${head("first")}# Review\n\n1. Never approve your own change.\n\n${prose}\n`);
    const { report } = await lintJson(root);
    expect(report.findings.filter((f) => f.code === "key-rules-not-first")).toEqual([
      expect.objectContaining({ file: "buried/SKILL.md", line: 6 }),
    ]);
  });

  it("a one-word trigger is generic when it is a common word or one the shelf's other skills share", async () => {
    const root = await tempDir();
    const skill = (name: string, description: string, triggers: string[]) =>
      `---\nname: ${name}\ndescription: ${description} Not for anything else.\ntriggers:\n${triggers.map((t) => `  - ${t}`).join("\n")}\n---\nBody.\n`;
    await write(
      root,
      "helper",
      skill("helper", "Answers questions about the build.", ["help", "build failure"]),
    );
    await write(root, "ship", skill("ship", "Runs the deploy pipeline.", ["deploy"]));
    await write(root, "rollout", skill("rollout", "Checks a deploy before it goes out.", ["canary"]));
    await write(root, "verify", skill("verify", "Watches a deploy after it goes out.", ["smoke test"]));
    await write(root, "notes", skill("notes", "Writes notes for a deploy.", ["release notes"]));
    const { report } = await lintJson(root);
    const generic = report.findings.filter((f) => f.code === "generic-trigger");
    expect(generic.map((f) => [f.file, f.line])).toEqual([
      ["helper/SKILL.md", 5],
      ["ship/SKILL.md", 5],
    ]);
    expect(generic[1]!.message).toContain("3 of the other 4 skills");
  });

  it("two skills that compete for one skill's examples are reported; an exclusion in the other settles it", async () => {
    const root = await tempDir();
    const salesReport = `---\nname: sales-report\ndescription: Builds the weekly sales report. Not for forecasts.\nexamples:\n  - convert the quarterly spreadsheet to json records\n---\nBody.\n`;
    const tables = (exclusions: string) =>
      `---\nname: spreadsheet-json\ndescription: Converts a spreadsheet to JSON records.${exclusions}\n---\nBody.\n`;
    await write(root, "sales-report", salesReport);
    await write(root, "spreadsheet-json", tables(""));
    await write(root, "weather", WEATHER);
    const { report } = await lintJson(root);
    const overlap = report.findings.find((f) => f.code === "overlapping-skills");
    expect(overlap).toMatchObject({ file: "sales-report/SKILL.md", line: 5 });
    expect(overlap?.message).toContain("spreadsheet-json");

    await write(root, "spreadsheet-json", tables("\nexclusions:\n  - quarterly spreadsheet"));
    const settled = await lintJson(root);
    expect(settled.report.findings.filter((f) => f.code === "overlapping-skills")).toEqual([]);
  });

  it("a fresh 'init' scaffold: TODO placeholders are warnings; --strict makes any warning exit 1", async () => {
    const root = await tempDir();
    expect(await main(["init", "draft"], capture(root).ctx)).toBe(0);
    const { code, report } = await lintJson(root, ".skillshelf");
    expect(code).toBe(0);
    expect(report.findings.map((f) => f.code)).toContain("placeholder-text");
    const strict = capture(root);
    expect(await main(["lint", "--strict", ".skillshelf"], strict.ctx)).toBe(1);
    expect(strict.out()).toMatch(
      /^\.skillshelf\/skills\/draft\/SKILL\.md\n {2}\d+ +warning +placeholder-text/m,
    );
    expect(strict.out()).toContain("hint: ");
  });

  it("exit codes: a file that does not load is an error (1); a missing path is bad usage (2); output is escaped", async () => {
    const root = await tempDir();
    await write(root, "broken", "---\nname: broken\ndescription: [oops\n---\n");
    const { code, report } = await lintJson(root);
    expect(code).toBe(1);
    expect(report.findings).toEqual([expect.objectContaining({ code: "not-loaded", severity: "error" })]);

    const missing = capture(root);
    expect(await main(["lint", "nowhere"], missing.ctx)).toBe(2);
    expect(missing.err()).toContain("nowhere does not exist");

    const hostile = await tempDir();
    await write(hostile, "evil", '---\nname: evil\ndescription: "\\e[2J\\e]0;pwned\\a"\n---\nBody.\n');
    const cap = capture(hostile);
    await main(["lint"], cap.ctx);
    expect(cap.out()).toContain("vague-description");
    expect(cap.out()).not.toContain("\u001b");
    expect(cap.out()).not.toContain("\u0007");
  });

  itWithSharedData(
    "lints real corpus skills: every file loads, every finding is located and hinted",
    async () => {
      const folder = path.join(DATA, "skills-corpus", "anthropics--skills");
      const { report } = await lintJson(folder);
      expect(report.files).toBeGreaterThanOrEqual(10);
      expect(report.totals.errors).toBe(0);
      for (const f of report.findings) {
        expect(f.line).toBeGreaterThanOrEqual(1);
        expect(f.hint.length).toBeGreaterThan(0);
      }
      // mcp-builder's 230-line body opens with prose, not its rules.
      expect(report.findings).toContainEqual(
        expect.objectContaining({ file: "skills/mcp-builder/SKILL.md", code: "key-rules-not-first" }),
      );
    },
  );
});
