/**
 * app/api/chat/route.ts: a Next.js App Router chat endpoint with skills.
 *
 * Stateless: the client (useChat) posts the whole conversation, and the active skills are
 * rebuilt from it on every request, so any server instance can answer.
 */
import {
  convertToModelMessages,
  createUIMessageStreamResponse,
  isStepCount,
  streamText,
  toUIMessageStream,
  type UIMessage,
} from "ai";
import { model } from "../../lib/model.js";
import { getSkills } from "../../lib/skills.js";
import { tools } from "../../lib/tools.js";

export async function POST(req: Request): Promise<Response> {
  const { messages } = (await req.json()) as { messages: UIMessage[] };
  const skills = await getSkills();
  const modelMessages = await convertToModelMessages(messages);

  const result = streamText({
    model,
    instructions: "You are a helpful assistant for this project.",
    messages: modelMessages,
    stopWhen: isStepCount(10),
    // Once per request: each step opens its own skill session from the step's messages.
    ...skills.wrap({ tools: { ...tools, ...skills.roleTools({ model, tools }) } }),
  });

  return createUIMessageStreamResponse({ stream: toUIMessageStream({ stream: result.stream }) });
}
