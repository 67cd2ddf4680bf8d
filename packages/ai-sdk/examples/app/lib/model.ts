import type { LanguageModel } from "ai";

// A model id for the Vercel AI Gateway (set AI_GATEWAY_API_KEY). Any provider works the same,
// e.g. `openai("gpt-5-mini")` from @ai-sdk/openai.
export const model: LanguageModel = "openai/gpt-5-mini";
