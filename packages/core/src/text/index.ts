export { type EscapeTerminalOptions, escapeTerminal, hasTerminalControls } from "./escape-terminal.js";
export { type TerminalStyles, terminalStyles } from "./terminal-styles.js";
