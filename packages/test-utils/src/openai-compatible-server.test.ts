import { afterEach, describe, expect, it } from "vitest";
import { reply, type ScriptedOpenAIServer, startScriptedOpenAIServer } from "./openai-compatible-server.js";

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, body: unknown) =>
  fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const baseRequest = {
  model: "m",
  messages: [
    { role: "system", content: "be brief" },
    { role: "user", content: "hi" },
  ],
  tools: [{ type: "function", function: { name: "read_file", parameters: { type: "object" } } }],
};

/** Loose view of JSON answers: tests assert on shapes, so a deep index type reads best. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field below.
type Json = any;

/** Parse an SSE body into its JSON events (ignoring the final [DONE]). */
async function sseEvents(response: Response): Promise<Json[]> {
  const text = await response.text();
  expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  return text
    .split("\n\n")
    .map((block) => block.replace(/^data: /, "").trim())
    .filter((data) => data && data !== "[DONE]")
    .map((data) => JSON.parse(data));
}

describe("startScriptedOpenAIServer", () => {
  it("answers non-streaming requests from a list, in order, and records them", async () => {
    server = await startScriptedOpenAIServer({
      script: [reply.toolCall("read_file", { path: "a.md" }), "all done"],
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);

    const first = (await (await post(server.url, baseRequest)).json()) as Json;
    expect(first.choices[0].finish_reason).toBe("tool_calls");
    expect(first.choices[0].message.tool_calls).toEqual([
      { id: "call_0_0", type: "function", function: { name: "read_file", arguments: '{"path":"a.md"}' } },
    ]);

    const second = (await (await post(server.url, baseRequest)).json()) as Json;
    expect(second.choices[0]).toMatchObject({ finish_reason: "stop", message: { content: "all done" } });

    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]).toMatchObject({
      turn: 0,
      toolNames: ["read_file"],
      systemTexts: ["be brief"],
    });
  });

  it("streams text in fragments and tool-call arguments in split deltas", async () => {
    server = await startScriptedOpenAIServer({
      chunkSize: 3,
      script: () => ({
        content: "hello world",
        toolCalls: [{ name: "read_file", arguments: { path: "x" } }],
      }),
    });
    const response = await post(server.url, {
      ...baseRequest,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await sseEvents(response);

    const text = events.map((e) => e.choices[0]?.delta?.content ?? "").join("");
    expect(text).toBe("hello world");
    const toolDeltas = events.flatMap((e) => e.choices[0]?.delta?.tool_calls ?? []);
    expect(toolDeltas[0]).toMatchObject({ index: 0, id: "call_0_0", function: { name: "read_file" } });
    expect(toolDeltas.map((d: Json) => d.function.arguments).join("")).toBe('{"path":"x"}');
    expect(toolDeltas.length).toBeGreaterThan(2);
    expect(events.at(-2)?.choices[0].finish_reason).toBe("tool_calls");
    expect(events.at(-1)?.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
  });

  it("passes the recorded request and turn to a script function", async () => {
    server = await startScriptedOpenAIServer({
      script: (request, turn) => `turn ${turn}, last: ${request.body.messages.at(-1)?.content}`,
    });
    await post(server.url, baseRequest);
    const second = (await (await post(server.url, baseRequest)).json()) as Json;
    expect(second.choices[0].message.content).toBe("turn 1, last: hi");
  });

  it("fails loudly when the script runs out, throws, or asks for an error", async () => {
    server = await startScriptedOpenAIServer({ script: [{ error: { status: 429, message: "slow down" } }] });
    const limited = await post(server.url, baseRequest);
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as Json).error.message).toBe("slow down");

    const exhausted = await post(server.url, baseRequest);
    expect(exhausted.status).toBe(500);
    expect(((await exhausted.json()) as Json).error.message).toMatch(/no scripted reply for turn 1/);

    const notFound = await fetch(`${server.url}/embeddings`, { method: "POST", body: "{}" });
    expect(notFound.status).toBe(404);
    const badJson = await fetch(`${server.url}/chat/completions`, { method: "POST", body: "{not json" });
    expect(badJson.status).toBe(400);
  });

  it("reports a throwing script as a 500 with its message", async () => {
    server = await startScriptedOpenAIServer({
      script: () => {
        throw new Error("script bug");
      },
    });
    const response = await post(server.url, baseRequest);
    expect(response.status).toBe(500);
    expect(((await response.json()) as Json).error.message).toContain("script bug");
  });
});
