export { type CommandContext, createContext } from "./context.js";
export { main, usage } from "./main.js";
