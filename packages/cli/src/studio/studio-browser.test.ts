// The studio end to end in headless Chromium (Debian's, never a downloaded browser), driven
// by playwright-core: one browser for the file, a fixture shelf in a temp folder, every
// decision checked on disk. Screenshots of each page go to test-artifacts/studio/.
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describeWithSharedData, IN_CI } from "@skillshelf/test-utils";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capture } from "../test-utils/capture.js";
import {
  createStudioFixture,
  NEW_CLARIFY,
  NEW_STEP,
  OLD_STEP,
  type StudioFixture,
} from "../test-utils/studio-fixture.js";
import { waitForOutput } from "../test-utils/wait-for-output.js";
import { run as runStudio } from "./command.js";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = fileURLToPath(new URL("../../test-artifacts/studio/", import.meta.url));
// What works on a closed network: no background connections, no first-run, no GPU.
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  const why = `no Chromium at ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium)`;
  if (IN_CI) throw new Error(`the studio's browser tests must run under CI, but there is ${why}`);
  console.info(`skipped: the studio's browser tests, ${why}`);
}

let fixture: StudioFixture;
let browser: Browser;
let page: Page;
let url: string;
let stopStudio: AbortController;
let studioExit: Promise<number>;
const pageErrors: string[] = [];

async function ledger(): Promise<Array<Record<string, unknown>>> {
  const text = await fs.readFile(path.join(fixture.root, ".skillshelf", "ledger.jsonl"), "utf8");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

async function open(hash: string): Promise<void> {
  await page.goto(`${url}#${hash}`);
  await page.waitForSelector(`main[data-ready="${hash.split("/")[0]}"]`);
}

const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

(hasChromium ? describeWithSharedData : describe.skip)("skillshelf studio in Chromium", () => {
  beforeAll(async () => {
    fixture = await createStudioFixture();
    await fs.mkdir(ARTIFACTS, { recursive: true });
    const io = capture(fixture.root, { home: fixture.home });
    stopStudio = new AbortController();
    studioExit = runStudio(["--root", fixture.root], io.ctx, stopStudio.signal);
    await waitForOutput(io, "http://");
    url = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(io.out())?.[0] ?? "";
    expect(url, io.err()).not.toBe("");
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    stopStudio?.abort();
    await studioExit;
    await fixture?.cleanup();
  });

  it("Shelf: every skill with scope and file; hostile text shown as text", async () => {
    await open("shelf");
    const names = await page.$$eval('[data-test="skill"]', (rows) =>
      rows.map((r) => r.getAttribute("data-name")),
    );
    expect(names).toEqual(
      expect.arrayContaining(["internal-comms", "mcp-builder", "wechat-article", "hostile-note"]),
    );
    const hostile = page.locator('[data-test="skill"][data-name="hostile-note"]');
    await expect(hostile.textContent()).resolves.toContain('<img src=x onerror="window.__pwned=1">');
    await expect(hostile.textContent()).resolves.toContain("\\u001b[31mred\\u202eevil");
    expect(await page.locator("main img, main script").count()).toBe(0);
    expect(await page.locator('[data-test="zero-use"]').count()).toBeGreaterThan(0);
    const disabled = await page.$$eval('[data-test="skill"]:has([data-test="disabled"])', (rows) =>
      rows.map((r) => r.getAttribute("data-name")),
    );
    expect(disabled).toEqual(["old-notes"]);
    const diagnostic = page.locator('[data-test="diagnostics"] li').filter({ hasText: "broken-skill" });
    await expect(diagnostic.textContent()).resolves.toMatch(
      /broken-skill\/SKILL\.md:\d+(:\d+)? error .*hint: /,
    );
    await page.fill('[data-test="filter"]', "mcp");
    expect(await page.locator('[data-test="skill"]').count()).toBe(1);
    await page.fill('[data-test="filter"]', "");
    await shot("shelf");
  });

  it("Match explorer: candidates with reasons, the veto, the catalog and its budget", async () => {
    await open("match");
    await page.fill('[data-test="message"]', "有什么写作技巧能让公众号文章更好");
    await page.click('[data-test="match"]');
    const veto = page.locator('[data-test="vetoed"][data-name="wechat-article"]');
    await veto.waitFor();
    await expect(veto.textContent()).resolves.toContain('exclusion "写作技巧" matched "写作技巧"');

    await page.fill('[data-test="message"]', "build an MCP server for the GitHub API");
    await page.click('[data-test="match"]');
    await page.locator('[data-test="candidate"]').first().waitFor();
    const first = page.locator('[data-test="candidate"]').first();
    await expect(first.getAttribute("data-name")).resolves.toBe("mcp-builder");
    await expect(first.textContent()).resolves.toMatch(/words: .*mcp/);
    expect(await first.locator("meter").count()).toBe(1);
    await expect(page.locator('[data-test="budget"]').textContent()).resolves.toMatch(
      /\d+ tokens \(estimate\) of a 4000-token budget; candidates first: mcp-builder/,
    );
    await expect(page.locator('[data-test="catalog"]').textContent()).resolves.toContain("mcp-builder");
    await shot("match");
  });

  it("Improvements: accept one proposal and reject another; files and ledger on disk", async () => {
    const [audience, clarify] = fixture.proposals;
    await open("improvements");
    const cards = page.locator('[data-test="proposal"]');
    expect(await cards.count()).toBe(2);
    const accepted = page.locator(`[data-test="proposal"][data-id="${audience!.id}"]`);
    await expect(accepted.locator("mark").first().textContent()).resolves.toBe(
      "This was meant for the leadership team, not engineers.",
    );
    // The quote is marked inside the run's message that said it, after the one that led there.
    const turns = accepted.locator('[data-test="transcript-turn"]');
    await expect(turns.allTextContents()).resolves.toEqual([
      "assistant(a technical update)",
      "userHmm. This was meant for the leadership team, not engineers.",
    ]);
    await expect(turns.nth(1).locator("mark").textContent()).resolves.toBe(
      "This was meant for the leadership team, not engineers.",
    );
    await expect(accepted.locator('[data-test="guards"]').textContent()).resolves.toMatch(
      /^Guards: ok — body/,
    );
    await expect(accepted.locator('[data-test="diff"] td.code.removed').first().textContent()).resolves.toBe(
      OLD_STEP,
    );
    await expect(accepted.locator('[data-test="diff"] td.code.added').first().textContent()).resolves.toBe(
      NEW_STEP,
    );
    await shot("improvements");

    await accepted.locator('[data-test="accept"]').click();
    await page.locator(`[data-test="decided-row"][data-id="${audience!.id}"]`).waitFor();
    const rejected = page.locator(`[data-test="proposal"][data-id="${clarify!.id}"]`);
    await expect(rejected.locator('[data-test="reject"]').isDisabled()).resolves.toBe(true);
    await rejected.locator('[data-test="reason"]').fill("our readers are always the team");
    await rejected.locator('[data-test="reject"]').click();
    await page.locator(`[data-test="decided-row"][data-id="${clarify!.id}"]`).waitFor();
    await page.locator('[data-test="no-pending"]').waitFor();

    const text = await fs.readFile(fixture.skillFile("internal-comms"), "utf8");
    expect(text).toContain(NEW_STEP);
    expect(text).not.toContain(NEW_CLARIFY);
    expect(text).toContain("version: 0.0.1");
    const decisions = (await ledger()).filter((r) => r.skill === "internal-comms");
    expect(decisions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "accepted", proposal: audience!.id }),
        expect.objectContaining({
          type: "rejected",
          proposal: clarify!.id,
          reason: "our readers are always the team",
        }),
      ]),
    );
    await shot("improvements-decided");
  });

  it("History: timeline, a diff, rollback with confirmation; the ledger", async () => {
    await open("history/webapp-testing");
    await page.locator('[data-test="versions"]').waitFor();
    expect(await page.locator('[data-test="version"]').count()).toBe(2);
    await expect(page.locator('[data-test="diff"] td.code.added').last().textContent()).resolves.toBe(
      "Added by a managed write.",
    );
    await page.click('[data-test="rollback"]');
    // Nothing is written until the confirmation.
    expect(await fs.readFile(fixture.skillFile("webapp-testing"), "utf8")).toContain(
      "Added by a managed write.",
    );
    await page.click('[data-test="confirm-rollback"]');
    await page.locator('[data-test="version"]').nth(2).waitFor();
    expect(await fs.readFile(fixture.skillFile("webapp-testing"), "utf8")).not.toContain(
      "Added by a managed write.",
    );
    expect((await ledger()).filter((r) => r.skill === "webapp-testing").map((r) => r.type)).toEqual([
      "write",
      "rollback",
    ]);
    await page.locator('[data-test="ledger-row"][data-type="rollback"]').waitFor();
    await shot("history");
  });

  it("ran no injected script and broke no CSP rule; stops cleanly", async () => {
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(pageErrors).toEqual([]);
    stopStudio.abort();
    await expect(studioExit).resolves.toBe(0);
  });
});
