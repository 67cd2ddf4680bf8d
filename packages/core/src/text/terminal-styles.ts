/**
 * Colours and untrusted text on one terminal. Escaping whole output lines would also escape
 * the colour codes the program adds itself; escaping only the data at every place it is
 * printed is easy to forget once. So styles are recorded as markers that contain a random
 * per-process key (text written before the process started cannot forge one), and `render`
 * escapes everything in a line except those markers, then turns the markers into the real
 * sequences. Every byte that reaches the terminal has then either been escaped or was
 * produced by a style function.
 */
import { randomBytes } from "node:crypto";
import { escapeTerminal } from "./escape-terminal.js";

type StyleFunction = (text: string) => string;

export interface TerminalStyles<T> {
  /** The same style functions; their output is only meaningful after `render`. */
  colors: T;
  /** Escapes untrusted characters in `text` and applies the styles recorded in it. */
  render(text: string): string;
}

// Private-use characters: never produced by the escaping, so a marker survives it unchanged.
const OPEN = "\ue000";
const CLOSE = "\ue001";
const ESC = "\u001b";
const SEQUENCE = /\u001b\[[0-9;]*m/g;

/**
 * Wraps a colour object (picocolors' `createColors(enabled)`, or any object of functions that
 * surround text with SGR sequences) so that untrusted text inside a style is escaped too.
 */
export function terminalStyles<T extends object>(colors: T): TerminalStyles<T> {
  const key = randomBytes(8).toString("hex");
  const marker = new RegExp(`${OPEN}${key}([0-9;]*)${CLOSE}`, "g");
  const toMarkers = (styled: string) =>
    styled.replace(SEQUENCE, (sequence) => `${OPEN}${key}${sequence.slice(2, -1)}${CLOSE}`);
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(colors)) {
    wrapped[name] =
      typeof value === "function"
        ? (text: unknown) => toMarkers((value as StyleFunction)(escapeTerminal(String(text))))
        : value;
  }
  return {
    colors: wrapped as T,
    render: (text) => escapeTerminal(text).replace(marker, (_, codes: string) => `${ESC}[${codes}m`),
  };
}
