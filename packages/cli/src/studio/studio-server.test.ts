import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { createShelf, type Shelf } from "@skillshelf/core";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createStudioFixture, HOSTILE, type StudioFixture } from "../test-utils/studio-fixture.js";
import { TOKEN_HEADER } from "./request-guard.js";
import { MAX_BODY_BYTES, type Studio, startStudio } from "./studio-server.js";

let fixture: StudioFixture;
let shelf: Shelf;
let studio: Studio;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw request: unlike fetch, it can send any Host and Origin, as an attacker's client would. */
function request(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: studio.port,
        path,
        method: options.method ?? "GET",
        headers: { host: `127.0.0.1:${studio.port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const withToken = (headers: Record<string, string> = {}) => ({ [TOKEN_HEADER]: studio.token, ...headers });
const postJson = (path: string, body: unknown, headers: Record<string, string> = withToken()) =>
  request(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  fixture = await createStudioFixture();
  shelf = await createShelf({
    root: fixture.root,
    userDirs: [],
    stateDir: path.join(fixture.root, ".skillshelf"),
    events: false,
  });
  studio = await startStudio({ shelf, home: fixture.home });
});
afterAll(async () => {
  await studio?.close();
  await shelf?.close();
  await fixture?.cleanup();
});

describeWithSharedData("skillshelf studio server", () => {
  it("listens on loopback and prints a URL that carries the token", () => {
    expect(studio.url).toBe(`http://127.0.0.1:${studio.port}/?token=${studio.token}`);
    expect(studio.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("serves the page only with the token, under a strict CSP", async () => {
    expect((await request("/")).status).toBe(401);
    expect((await request("/?token=wrong")).status).toBe(401);
    const page = await request(`/?token=${studio.token}`);
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(page.headers["content-security-policy"]).not.toContain("unsafe");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(page.body).not.toMatch(/<script>|<script(?![^>]*\bsrc=)|\son\w+=|style=/);
  });

  it("requires the token on every API call, compared as a whole", async () => {
    expect((await request("/api/shelf")).status).toBe(401);
    expect((await request("/api/shelf", { headers: { [TOKEN_HEADER]: "x" } })).status).toBe(401);
    expect(
      (await request("/api/shelf", { headers: { [TOKEN_HEADER]: studio.token.slice(0, -1) } })).status,
    ).toBe(401);
    expect((await request("/api/shelf", { headers: { [TOKEN_HEADER]: `${studio.token}x` } })).status).toBe(
      401,
    );
    // The token in the URL does not stand in for the header: a link or <img> cannot call the API.
    expect((await request(`/api/shelf?token=${studio.token}`)).status).toBe(401);
    expect((await request("/api/shelf", { headers: withToken() })).status).toBe(200);
  });

  it("refuses other host names (DNS rebinding) and other origins", async () => {
    const rebound = await request("/api/shelf", {
      headers: withToken({ host: `evil.example:${studio.port}` }),
    });
    expect(rebound.status).toBe(421);
    expect((await request(`/?token=${studio.token}`, { headers: { host: "evil.example" } })).status).toBe(
      421,
    );
    const origin = await request("/api/shelf", { headers: withToken({ origin: "http://evil.example" }) });
    expect(origin.status).toBe(403);
    const site = await request("/api/shelf", { headers: withToken({ "sec-fetch-site": "cross-site" }) });
    expect(site.status).toBe(403);
    const own = await request("/api/shelf", {
      headers: withToken({ origin: `http://127.0.0.1:${studio.port}`, "sec-fetch-site": "same-origin" }),
    });
    expect(own.status).toBe(200);
  });

  it("changes state only on a JSON POST with the token", async () => {
    const [p] = fixture.proposals;
    // A form post (what a cross-site page can send without a preflight) is refused.
    const form = await request("/api/improvements/reject", {
      method: "POST",
      headers: withToken({ "content-type": "application/x-www-form-urlencoded" }),
      body: `id=${p!.id}&reason=x`,
    });
    expect(form.status).toBe(415);
    expect(
      (await request(`/api/improvements/reject?id=${p!.id}&reason=x`, { headers: withToken() })).status,
    ).toBe(405);
    expect((await postJson("/api/improvements/reject", { id: p!.id, reason: "x" }, {})).status).toBe(401);
    expect((await postJson("/api/shelf", {})).status).toBe(405);
    expect((await postJson("/api/improvements/reject", { id: p!.id, reason: "  " })).status).toBe(400);
    const big = await postJson("/api/improvements/reject", { id: p!.id, reason: "x".repeat(MAX_BODY_BYTES) });
    expect(big.status).toBe(413);
    const notJson = await request("/api/improvements/reject", {
      method: "POST",
      headers: withToken({ "content-type": "application/json" }),
      body: "{",
    });
    expect(notJson.status).toBe(400);
    expect((await shelf.improvements.get(p!.id)).status).toBe("pending");
  });

  it("reads nothing outside the shelf, whatever the path or name encodes", async () => {
    const attempts = [
      "/assets/../package.json",
      "/assets/..%2f..%2f..%2fpackage.json",
      "/assets/%2e%2e/%2e%2e/studio-server.ts",
      "/assets//etc/passwd",
      "/assets/..\\..\\package.json",
      "/..%2f..%2fetc%2fpasswd",
      "/etc/passwd",
      "/assets/index.html/../../../../etc/passwd",
    ];
    for (const path of attempts) {
      const answer = await request(path, { headers: withToken() });
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toContain("root:");
    }
    for (const name of [
      "../../../../etc/passwd",
      "/etc/passwd",
      "..",
      "internal-comms/../../../etc/passwd",
    ]) {
      const history = await request(`/api/history?skill=${encodeURIComponent(name)}`, {
        headers: withToken(),
      });
      expect(history.status, name).toBe(404);
      const diff = await request(`/api/diff?skill=${encodeURIComponent(name)}&a=~1`, {
        headers: withToken(),
      });
      expect(diff.status, name).toBe(404);
      expect(history.body + diff.body).not.toContain("root:");
    }
    const ref = await request(
      `/api/diff?skill=webapp-testing&a=${encodeURIComponent("../../../../etc/passwd")}`,
      {
        headers: withToken(),
      },
    );
    expect(ref.status).toBe(404);
    expect(ref.body).not.toContain("root:");
  });

  it("answers with every string's controls made visible and no markup bytes", async () => {
    const answer = await request("/api/shelf", { headers: withToken() });
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answer.body).not.toMatch(/[<>\u001b\u202e]/);
    const data = JSON.parse(answer.body);
    const hostile = data.skills.find((s: { name: string }) => s.name === "hostile-note");
    expect(hostile.description).toContain('<img src=x onerror="window.__pwned=1">');
    expect(hostile.description).toContain("\\u001b[31mred\\u202eevil");
    expect(hostile.description).not.toContain(HOSTILE);
    const pending = JSON.parse((await request("/api/improvements", { headers: withToken() })).body);
    const titles = pending.pending.map((p: { proposal: { title: string } }) => p.proposal.title).join("\n");
    expect(titles).toContain("\\u001b[31m");
    expect(titles).not.toContain("\u001b");
  });

  it("answers a refused write with core's message and writes nothing", async () => {
    const file = fixture.skillFile("webapp-testing");
    const before = await fs.readFile(file, "utf8");
    const stale = await postJson("/api/rollback", {
      skill: "webapp-testing",
      ref: "~1",
      expectedHash: "0".repeat(64),
    });
    expect(stale.status).toBe(409);
    expect(JSON.parse(stale.body).error).toMatch(/CONFLICT|changed/i);
    expect(await fs.readFile(file, "utf8")).toBe(before);
    const unknown = await postJson("/api/improvements/accept", { id: "no-such-proposal" });
    expect(unknown.status).toBe(404);
    const builtin = await postJson("/api/rollback", { skill: "reviewer", ref: "~1" });
    expect(builtin.status).toBe(409);
  });

  it("answers the match explorer with candidates, vetoes and the catalog budget", async () => {
    const answer = await request(
      `/api/match?message=${encodeURIComponent("有什么写作技巧能让公众号文章更好")}`,
      {
        headers: withToken(),
      },
    );
    const data = JSON.parse(answer.body);
    expect(data.result.vetoed).toEqual([
      expect.objectContaining({ name: "wechat-article", exclusion: "写作技巧" }),
    ]);
    expect(data.catalog).toMatchObject({ budget: 4_000, tokens: expect.any(Number) });
    expect(data.catalog.text).toContain("mcp-builder");
    const mcp = JSON.parse(
      (
        await request(`/api/match?message=${encodeURIComponent("build an MCP server")}`, {
          headers: withToken(),
        })
      ).body,
    );
    expect(mcp.result.candidates[0]).toMatchObject({
      name: "mcp-builder",
      why: [expect.stringMatching(/words: .*mcp/)],
    });
    expect((await request("/api/match", { headers: withToken() })).status).toBe(400);
  });
});
