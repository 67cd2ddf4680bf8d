// Calls to the studio's API. The token came in the page's URL; it goes in a header on every
// call (a page of another origin cannot add that header without a preflight the server refuses).

const token = new URLSearchParams(location.search).get("token") ?? "";

async function call(path, init) {
  const response = await fetch(path, {
    ...init,
    headers: { "x-skillshelf-token": token, ...(init?.headers ?? {}) },
    credentials: "omit",
    cache: "no-store",
  });
  const body = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}

export function get(path, params = {}) {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== ""));
  return call(`${path}${query.size > 0 ? `?${query}` : ""}`, { method: "GET" });
}

export function post(path, body) {
  return call(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}
