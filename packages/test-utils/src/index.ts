// Shared by the adapters tests. See openai-compatible-server.ts (to be written with the AI SDK adapter).
export {};
