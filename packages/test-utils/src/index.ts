// Private test helpers shared by the adapters' tests. Never published.
export * from "./openai-compatible-server.js";
