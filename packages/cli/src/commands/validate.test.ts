import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { itWithSharedData, sharedData } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";
import type { ValidateReport } from "./validate.js";

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const DATA = sharedData();

async function tempDir(): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-")));
}

async function write(root: string, rel: string, text: string): Promise<string> {
  const file = path.join(root, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return file;
}

const skill = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: Does ${name}.\n${extra}---\n\nBody.\n`;

async function validateJson(
  cwd: string,
  ...args: string[]
): Promise<{ code: number; report: ValidateReport }> {
  const cap = capture(cwd);
  const code = await main(["validate", "--json", ...args], cap.ctx);
  return { code, report: JSON.parse(cap.out()) as ValidateReport };
}

describe("skillshelf validate", () => {
  it("the example skills shipped in the repo are valid, even strictly", async () => {
    const cap = capture(REPO);
    expect(await main(["validate", "examples/skills", "--strict"], cap.ctx)).toBe(0);
    expect(cap.out()).toMatch(/✔ 3 files checked \(strict\), no problems/);
  });

  it("finds SKILL.md and skill.md at any depth, in hidden folders too, but not in node_modules or .git", async () => {
    const root = await tempDir();
    await write(root, "a/SKILL.md", skill("a"));
    await write(root, "x/y/z/w/deep/SKILL.md", skill("deep"));
    await write(root, ".curated/hidden/skill.md", skill("hidden"));
    await write(root, "node_modules/pkg/SKILL.md", "garbage");
    await write(root, ".git/SKILL.md", "garbage");
    await write(root, "notes/README.md", "not a skill");
    const { code, report } = await validateJson(root);
    expect(code).toBe(0);
    expect(report.files.map((f) => f.file)).toEqual([
      ".curated/hidden/skill.md",
      "a/SKILL.md",
      "x/y/z/w/deep/SKILL.md",
    ]);
    expect(report.files.map((f) => f.name)).toEqual(["hidden", "a", "deep"]);
    expect(report.totals).toMatchObject({ files: 3, ok: 3, errors: 0 });
  });

  it("exit 1 on errors; human output grouped by file with line numbers and hints, no colour off a TTY", async () => {
    const root = await tempDir();
    await write(root, "good/SKILL.md", skill("good"));
    await write(root, "broken/SKILL.md", "---\nname: broken\ndescription: [oops\n---\n");
    await write(root, "nodesc/SKILL.md", "---\nname: nodesc\n---\nBody\n");
    const cap = capture(root);
    expect(await main(["validate", "."], cap.ctx)).toBe(1);
    const out = cap.out();
    expect(out).not.toContain("\u001b[");
    expect(out).toMatch(/^broken\/SKILL\.md\n {2}\d+:\d+ +error +yaml-syntax +/m);
    expect(out).toMatch(/^nodesc\/SKILL\.md\n {2}\d+ +error +missing-description/m);
    expect(out).toContain("hint: ");
    expect(out).not.toContain("good/SKILL.md");
    expect(out).toMatch(/✖ 2 problems \(2 errors, 0 warnings\) in 2 files of 3 checked\n$/);
  });

  it("colours only when the context says so (a TTY)", async () => {
    const root = await tempDir();
    await write(root, "nodesc/SKILL.md", "---\nname: nodesc\n---\n");
    const cap = capture(root, { color: true });
    await main(["validate"], cap.ctx);
    expect(cap.out()).toContain("\u001b[31merror");
  });

  it("--json lists every file with status and diagnostics, plus totals by code", async () => {
    const root = await tempDir();
    await write(root, "ok/SKILL.md", skill("ok"));
    await write(root, "renamed/SKILL.md", skill("other-name"));
    await write(root, "empty/SKILL.md", "");
    const { code, report } = await validateJson(root, ".");
    expect(code).toBe(1);
    expect(report.mode).toBe("lenient");
    expect(report.files.map((f) => [f.file, f.status])).toEqual([
      ["empty/SKILL.md", "error"],
      ["ok/SKILL.md", "ok"],
      ["renamed/SKILL.md", "warning"],
    ]);
    expect(report.files[2]!.diagnostics[0]).toMatchObject({
      code: "name-mismatch",
      severity: "warning",
      file: "renamed/SKILL.md",
      line: 2,
    });
    expect(report.totals).toEqual({
      files: 3,
      ok: 1,
      warning: 1,
      error: 1,
      errors: 1,
      warnings: 1,
      infos: 0,
      byCode: { "empty-file": 1, "name-mismatch": 1 },
    });
  });

  it("--strict turns the specification's rules into errors", async () => {
    const root = await tempDir();
    await write(root, "renamed/SKILL.md", skill("other-name"));
    expect((await validateJson(root)).code).toBe(0);
    const strict = await validateJson(root, "--strict");
    expect(strict.code).toBe(1);
    expect(strict.report.files[0]).toMatchObject({ status: "error" });
    expect(strict.report.files[0]!.diagnostics[0]).toMatchObject({
      code: "name-mismatch",
      severity: "error",
    });
  });

  it("takes files and folders; a file is checked whatever its name; a missing path is an error", async () => {
    const root = await tempDir();
    await write(root, "one/SKILL.md", skill("one"));
    await write(root, "drafts/two.md", skill("drafts"));
    const { code, report } = await validateJson(root, "drafts/two.md", "one", "missing");
    expect(code).toBe(1);
    expect(report.files.map((f) => [f.file, f.status])).toEqual([
      ["missing", "error"],
      ["drafts/two.md", "ok"],
      ["one/SKILL.md", "ok"],
    ]);
    expect(report.files[0]!.diagnostics[0]).toMatchObject({ code: "read-error" });
  });

  it("nothing to check is a failure, not a silent pass", async () => {
    const root = await tempDir();
    const cap = capture(root);
    expect(await main(["validate"], cap.ctx)).toBe(1);
    expect(cap.out()).toContain("no SKILL.md files found in .");
  });

  it("bad usage exits 2 with the help; --help exits 0", async () => {
    const cap = capture(REPO);
    expect(await main(["validate", "--nope"], cap.ctx)).toBe(2);
    expect(cap.err()).toContain("Usage: skillshelf validate");
    const help = capture(REPO);
    expect(await main(["validate", "--help"], help.ctx)).toBe(0);
    expect(help.out()).toContain("--strict");
  });

  itWithSharedData("checks the whole real corpus without crashing: every file reported", async () => {
    const corpus = path.join(DATA, "skills-corpus");
    const manifest = (await fs.readFile(path.join(corpus, "MANIFEST.tsv"), "utf8"))
      .trim()
      .split("\n")
      .slice(1);
    const skillFiles = manifest
      .map((line) => line.split("\t")[0]!)
      .filter((p) => /(^|\/)skill\.md$/i.test(p));
    const { report } = await validateJson(corpus);
    expect(report.files.map((f) => f.file).sort()).toEqual(skillFiles.sort());
    expect(report.totals.files).toBe(939);
    for (const file of report.files) {
      if (file.status === "error") expect(file.diagnostics.some((d) => d.severity === "error")).toBe(true);
      for (const d of file.diagnostics) expect(d.line).toBeGreaterThanOrEqual(1);
    }
  });
});
