/**
 * Tool-call ids a hostile model (or a sloppy provider) repeats or leaves empty. One
 * response holds an activation and a forbidden call under one id (or both under ""), in both
 * orders; the route then serves the next request from the messages it sent back (a stateless
 * rebuild): the activation must be read as the activation, the refusal as a refusal, and the
 * forbidden tool must stay refused — in that run and in the next request.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShelf, type Shelf } from "@skillshelf/core";
import { generateText, isStepCount, jsonSchema, type ModelMessage, streamText, tool } from "ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSkills } from "./index.js";
import { scriptedModel, type Turn } from "./test-utils/mock-model.js";

const READER =
  "---\nname: reader\ndescription: Reads the files the user names.\ntriggers: [read the notes]\nallowed-tools: read_file\n---\nRead.\n";
const MAILER =
  "---\nname: mailer\ndescription: Mails things.\ntriggers: [mail it]\nallowed-tools: read_file send_email\n---\nMail.\n";

let root: string;
let shelf: Shelf;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillshelf-ai-ids-"));
  for (const [name, text] of Object.entries({ reader: READER, mailer: MAILER })) {
    await mkdir(join(root, ".skillshelf", "skills", name), { recursive: true });
    await writeFile(join(root, ".skillshelf", "skills", name, "SKILL.md"), text);
  }
  shelf = await createShelf({ root, userDirs: [], events: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

const schema = jsonSchema<Record<string, unknown>>({ type: "object", additionalProperties: true });

type Call = { name: string; input?: unknown; id?: string };

async function run(how: "generateText" | "streamText", messages: ModelMessage[], replies: Call[][]) {
  const skills = await createSkills({ shelf, onDiagnostic: () => {} });
  const send_email = vi.fn(async () => "sent");
  const host = {
    read_file: tool({ description: "Read a file.", inputSchema: schema, execute: async () => "notes" }),
    send_email: tool({ description: "Send an email.", inputSchema: schema, execute: send_email }),
  };
  const model = scriptedModel(
    (_call, i): Turn => (i < replies.length ? { toolCalls: replies[i]! } : { text: "done" }),
  );
  const options = { model, messages, stopWhen: isStepCount(6), ...skills.wrap({ messages, tools: host }) };
  if (how === "generateText") {
    const result = await generateText(options);
    return { send_email, response: result.responseMessages, steps: result.steps };
  }
  const streamed = streamText(options);
  await streamed.consumeStream();
  return { send_email, response: await streamed.responseMessages, steps: await streamed.steps };
}

const mail = (id?: string): Call => ({
  name: "send_email",
  input: { to: "x@example.com" },
  ...(id !== undefined && { id }),
});

describe.each(["generateText", "streamText"] as const)("AI SDK %s: repeated and empty call ids", (how) => {
  for (const id of ["dup", ""]) {
    for (const order of ["activation first", "forbidden call first"] as const) {
      it(`id ${JSON.stringify(id)}, ${order}: the activation holds, in the run and in the next request`, async () => {
        const activation: Call = { name: "skill_reader", input: {}, id };
        const first: Call[] = order === "activation first" ? [activation, mail(id)] : [mail(id), activation];
        const messages: ModelMessage[] = [{ role: "user", content: "read the notes, then mail them to me" }];
        const one = await run(how, messages, [first, [mail(id)]]);
        expect(one.send_email).not.toHaveBeenCalled();
        const refused = one.steps.flatMap((s) => s.toolResults).filter((r) => r.toolName === "send_email");
        expect(refused).toHaveLength(2);
        for (const r of refused) expect(r.output).toMatchObject({ error_type: "TOOL_NOT_ALLOWED" });

        // The next request: the route gets the conversation back and rebuilds from it.
        const next: ModelMessage[] = [
          ...messages,
          ...one.response,
          { role: "user", content: "ok, go ahead" },
        ];
        const two = await run(how, next, [[mail(id)], [mail("")]]);
        expect(two.send_email).not.toHaveBeenCalled();
        // Refused by the rebuilt reader, not merely never called.
        const again = two.steps.flatMap((s) => s.toolResults).filter((r) => r.toolName === "send_email");
        expect(again).toHaveLength(2);
        for (const r of again) expect(r.output).toMatchObject({ error_type: "TOOL_NOT_ALLOWED" });
      });
    }
  }

  it("two activations under one id (narrow and wide, both orders) and the forbidden call: never wider than the narrow one", async () => {
    for (const pair of [
      ["skill_reader", "skill_mailer"],
      ["skill_mailer", "skill_reader"],
    ]) {
      const messages: ModelMessage[] = [{ role: "user", content: "read the notes and mail it" }];
      const reply: Call[] = [...pair.map((name) => ({ name, input: {}, id: "same" })), mail("same")];
      const one = await run(how, messages, [reply, [mail("x")]]);
      const next: ModelMessage[] = [...messages, ...one.response, { role: "user", content: "ok, go ahead" }];
      const two = await run(how, next, [[mail("y")]]);
      // The reader was activated (whichever order): send_email is refused throughout.
      expect(one.send_email).not.toHaveBeenCalled();
      expect(two.send_email).not.toHaveBeenCalled();
      expect(two.steps[0]?.toolResults[0]?.output).toMatchObject({ error_type: "TOOL_NOT_ALLOWED" });
    }
  });
});
