/**
 * Who may talk to the studio. It listens on loopback, but any web page the user opens can
 * send requests to 127.0.0.1, and a DNS-rebinding page can even read the answers under its
 * own host name. So every request must name the studio's own host, a cross-site request is
 * refused, and every API call carries the per-run token in a header — which a page of
 * another origin cannot set without a CORS preflight that the studio never answers.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const TOKEN_HEADER = "x-skillshelf-token";

export interface Refusal {
  status: number;
  message: string;
}

/** 32 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Constant-time: hashing first gives both sides the same length, so neither length nor content leaks. */
export function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** The origins the studio's own pages have. */
export function ownOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

/** Host and Origin checks every request passes, before anything is read or served. */
export function checkOrigin(request: IncomingMessage, port: number): Refusal | undefined {
  const hosts = ownOrigins(port).map((origin) => origin.slice("http://".length));
  if (!hosts.includes(request.headers.host ?? "")) {
    return { status: 421, message: "this server answers only to its own address (127.0.0.1)" };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !ownOrigins(port).includes(origin)) {
    return { status: 403, message: "cross-origin requests are refused" };
  }
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    return { status: 403, message: "cross-site requests are refused" };
  }
  return undefined;
}

/** The token check of an API call; a state-changing call must also be a JSON POST. */
export function checkApiCall(
  request: IncomingMessage,
  token: string,
  changesState: boolean,
): Refusal | undefined {
  const given = request.headers[TOKEN_HEADER];
  if (!sameToken(typeof given === "string" ? given : undefined, token)) {
    return { status: 401, message: "missing or wrong studio token: open the URL the studio printed" };
  }
  if (changesState) {
    if (request.method !== "POST") return { status: 405, message: "use POST" };
    const type = request.headers["content-type"] ?? "";
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      return { status: 415, message: "send application/json" };
    }
  } else if (request.method !== "GET") {
    return { status: 405, message: "use GET" };
  }
  return undefined;
}
