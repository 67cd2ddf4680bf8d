/**
 * The step's model as an object `respondingModel` can wrap. The SDK hands prepareStep the
 * model it resolved, but a host's own prepareStep may return a model id ("openai/gpt-5");
 * that is resolved the way the SDK resolves one: through the global default provider
 * (`globalThis.AI_SDK_DEFAULT_PROVIDER`), else the AI Gateway.
 */
import { gateway, type LanguageModel } from "ai";

type ModelObject = Exclude<LanguageModel, string>;

export function stepModel(model: LanguageModel): ModelObject {
  if (typeof model !== "string") return model;
  const provider = (globalThis.AI_SDK_DEFAULT_PROVIDER ?? gateway) as { languageModel(id: string): unknown };
  return provider.languageModel(model) as ModelObject;
}
