// A CommandContext that records output instead of writing it (tests only; excluded from the build).
import pc from "picocolors";
import { type CommandContext, createContext } from "../context.js";

export interface Captured {
  ctx: CommandContext;
  out(): string;
  err(): string;
}

export function capture(cwd: string, options: { home?: string; color?: boolean } = {}): Captured {
  let out = "";
  let err = "";
  const ctx = createContext({
    cwd,
    env: { HOME: options.home ?? cwd },
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    color: pc.createColors(options.color ?? false),
  });
  return { ctx, out: () => out, err: () => err };
}
