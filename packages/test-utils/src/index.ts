// Private test helpers shared by the packages' tests. Never published.
export * from "./openai-compatible-server.js";
export * from "./shared-data.js";
export * from "./with-shared-data.js";
