import { readFileSync } from "node:fs";

/** src/ and dist/ sit at the same depth, so the manifest is one folder up from either. */
export const CLI_VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** `--version`/`-V` among a command's options (not after `--`, where a message may say it). */
export function asksVersion(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === "--version" || arg === "-V");
}
