import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { Generate } from "@skillshelf/core";

/** core's `Generate` (used by the improvement loop) from any LangChain chat model. */
export function generateFrom(model: BaseChatModel): Generate {
  return async ({ system, prompt, signal }) => {
    const reply = await model.invoke([new SystemMessage(system), new HumanMessage(prompt)], { signal });
    return reply.text;
  };
}
