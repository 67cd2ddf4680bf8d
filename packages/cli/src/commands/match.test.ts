import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describeWithSharedData, sharedData } from "@skillshelf/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";

const CORPUS = sharedData("skills-corpus/anthropics--skills/skills/");
let root: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-match-")));
  for (const name of ["mcp-builder", "skill-creator", "webapp-testing"]) {
    await fs.mkdir(path.join(root, ".skillshelf/skills", name), { recursive: true });
    await fs.copyFile(
      path.join(CORPUS, name, "SKILL.md"),
      path.join(root, ".skillshelf/skills", name, "SKILL.md"),
    );
  }
  await fs.mkdir(path.join(root, ".skillshelf/skills/wechat-article"), { recursive: true });
  await fs.writeFile(
    path.join(root, ".skillshelf/skills/wechat-article/SKILL.md"),
    "---\nname: wechat-article\ndescription: 写公众号文章。\ntriggers: [写*文章, 公众号]\nexclusions: [写作技巧]\n---\n\nBody.\n",
  );
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describeWithSharedData("skillshelf match", () => {
  it("prints ranked candidates with their reasons", async () => {
    const c = capture(root);
    expect(await main(["match", "build an MCP server for the GitHub API"], c.ctx)).toBe(0);
    expect(c.out()).toMatch(/^ 1\. mcp-builder\s+0\.\d{3}\s+.*words: .*mcp/mu);
  });

  it("explains a CJK trigger and reports a veto", async () => {
    const hit = capture(root);
    await main(["match", "帮我写一篇关于AI的文章"], hit.ctx);
    expect(hit.out()).toContain('trigger "写*文章" matched "写一篇关于 ai 的文章"');
    const veto = capture(root);
    await main(["match", "有什么写作技巧能让公众号文章更好"], veto.ctx);
    expect(veto.out()).toContain('vetoed: wechat-article — exclusion "写作技巧" matched "写作技巧"');
  });

  it("says so when no skill applies", async () => {
    const c = capture(root);
    await main(["match", "what's the capital of Portugal?"], c.ctx);
    expect(c.out()).toMatch(/^No candidate: no skill of \d+ applies/u);
  });

  it("says why a skill some words pointed at is not a candidate", async () => {
    const c = capture(root);
    await main(["match", "build an MCP server", "--min-score", "0.99"], c.ctx);
    expect(c.out()).toMatch(/^No candidate: no skill of \d+ applies/u);
    expect(c.out()).toMatch(/^not a candidate: mcp-builder 0\.\d{3} — below the threshold \(.*mcp.*\)$/mu);
    const quiet = capture(root);
    await main(["match", "build an MCP server", "--min-score", "0.99", "--near-misses", "0"], quiet.ctx);
    expect(quiet.out()).not.toContain("not a candidate");
    const bad = capture(root);
    expect(await main(["match", "x", "--near-misses", "two"], bad.ctx)).toBe(2);
    expect(bad.err()).toContain("--near-misses must be a whole number");
  });

  it("prints the match result as JSON", async () => {
    const c = capture(root);
    await main(["match", "write evals to test my skill's triggering", "--json"], c.ctx);
    const result = JSON.parse(c.out());
    expect(result.candidates[0].name).toBe("skill-creator");
    expect(result).toHaveProperty("vetoed");
    expect(result).toHaveProperty("ambiguous");
  });

  it("honours --min-score and --limit, and rejects bad usage", async () => {
    const strict = capture(root);
    await main(["match", "build an MCP server", "--min-score", "0.99", "--json"], strict.ctx);
    expect(JSON.parse(strict.out()).candidates).toEqual([]);
    const none = capture(root);
    expect(await main(["match"], none.ctx)).toBe(2);
    expect(none.err()).toContain("give exactly one message");
    const bad = capture(root);
    expect(await main(["match", "x", "--min-score", "2"], bad.ctx)).toBe(2);
    expect(bad.err()).toContain("--min-score must be a number from 0 to 1");
  });

  it("does not write usage or events while inspecting", async () => {
    await main(["match", "build an MCP server"], capture(root).ctx);
    await expect(fs.readdir(path.join(root, ".skillshelf"))).resolves.toEqual(["skills"]);
  });
});
