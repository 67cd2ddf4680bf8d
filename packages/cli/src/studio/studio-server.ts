/**
 * The studio's HTTP server: node:http on 127.0.0.1, a random free port unless one is asked
 * for, a per-run token. The page (with the token in its URL) and its own script and style
 * files are served under a strict Content-Security-Policy; `/api/…` answers JSON to calls
 * that carry the token. Everything else is 404.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ImproveError, type Shelf, SkillWriteError } from "@skillshelf/core";
import { checkApiCall, checkOrigin, newToken, type Refusal, sameToken } from "./request-guard.js";
import { type Asset, loadAssets } from "./static-assets.js";
import { ApiError, type Body, createStudioApi } from "./studio-api.js";
import { visibleJson } from "./visible-json.js";

export interface StudioOptions {
  shelf: Shelf;
  home: string | undefined;
  /** 0 (default): any free port. */
  port?: number;
  budgetTokens?: number;
  /** Fixed only in tests; a fresh random token otherwise. */
  token?: string;
}

export interface Studio {
  /** The page's URL, token included: what the user opens. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** A request body larger than this is refused before it is parsed. */
export const MAX_BODY_BYTES = 64 * 1024;

// No inline script or style anywhere: a text that somehow became markup still could not run.
const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

function send(response: ServerResponse, status: number, type: string, body: string | Buffer): void {
  response.writeHead(status, { ...SECURITY_HEADERS, "content-type": type });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, "application/json; charset=utf-8", visibleJson(value));
}

function refuse(response: ServerResponse, refusal: Refusal, json: boolean): void {
  if (json) sendJson(response, refusal.status, { error: refusal.message });
  else send(response, refusal.status, "text/plain; charset=utf-8", `${refusal.message}\n`);
}

async function readBody(request: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new ApiError(413, `the request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new ApiError(400, "the request body is not JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ApiError(400, "the request body must be a JSON object");
  }
  return parsed as Body;
}

/** A refused operation's status: the user can act on these messages; anything else is a bug. */
function errorStatus(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.status;
  if (error instanceof SkillWriteError || error instanceof ImproveError) {
    return error.code === "NOT_FOUND" ? 404 : 409;
  }
  return undefined;
}

export async function startStudio(options: StudioOptions): Promise<Studio> {
  const token = options.token ?? newToken();
  const assets: ReadonlyMap<string, Asset> = loadAssets();
  const api = createStudioApi({
    shelf: options.shelf,
    home: options.home,
    budgetTokens: options.budgetTokens ?? 4_000,
  });
  let port = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://studio.invalid");
    const isApi = url.pathname.startsWith("/api/");
    const refused = checkOrigin(request, port);
    if (refused) return refuse(response, refused, isApi);

    if (isApi) {
      const route = api.get(url.pathname);
      if (!route) return sendJson(response, 404, { error: "no such API call" });
      const denied = checkApiCall(request, token, route.changesState);
      if (denied) return refuse(response, denied, true);
      try {
        const body = route.changesState ? await readBody(request) : {};
        // Files may have changed since the last call (an accept, a hand edit): see them first.
        await options.shelf.refresh();
        return sendJson(response, 200, await route.handle({ query: url.searchParams, body }));
      } catch (error) {
        const status = errorStatus(error);
        if (status === undefined) {
          process.stderr.write(`skillshelf studio: ${(error as Error).stack ?? String(error)}\n`);
          return sendJson(response, 500, { error: "internal error (see the studio's terminal)" });
        }
        return sendJson(response, status, { error: (error as Error).message });
      }
    }

    if (request.method !== "GET" && request.method !== "HEAD") {
      return refuse(response, { status: 405, message: "use GET" }, false);
    }
    if (url.pathname === "/") {
      // The page holds no data, but only the printed URL opens it: a stray visitor learns nothing.
      if (!sameToken(url.searchParams.get("token") ?? undefined, token)) {
        return refuse(
          response,
          { status: 401, message: "open the URL the studio printed (it carries the token)" },
          false,
        );
      }
      const page = assets.get("index.html") as Asset;
      return send(response, 200, page.type, page.body);
    }
    const name = url.pathname.startsWith("/assets/") ? url.pathname.slice("/assets/".length) : undefined;
    const asset = name === undefined || name === "index.html" ? undefined : assets.get(name);
    if (!asset) return refuse(response, { status: 404, message: "not found" }, false);
    return send(response, 200, asset.type, asset.body);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      process.stderr.write(`skillshelf studio: ${(error as Error).stack ?? String(error)}\n`);
      if (!response.headersSent) sendJson(response, 500, { error: "internal error" });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
