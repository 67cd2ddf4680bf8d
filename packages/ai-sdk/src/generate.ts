/**
 * The `generate` bridge core's improvement loop needs: one prompt in, text out, from any
 * AI SDK language model.
 */
import type { Generate } from "@skillshelf/core";
import { generateText, type LanguageModel, type LanguageModelCallOptions } from "ai";

export function createGenerate(model: LanguageModel, settings: LanguageModelCallOptions = {}): Generate {
  return async ({ system, prompt, signal }) => {
    const result = await generateText({
      ...settings,
      model,
      instructions: system,
      prompt,
      abortSignal: signal,
    });
    return result.text;
  };
}
