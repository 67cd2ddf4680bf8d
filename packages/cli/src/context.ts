import pc from "picocolors";

/** What a command may touch: injected so tests capture output instead of spawning. */
export interface CommandContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  /** Colours on only for a TTY (and never with NO_COLOR). */
  color: ReturnType<typeof pc.createColors>;
}

export function createContext(overrides: Partial<CommandContext> = {}): CommandContext {
  const tty = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  return {
    cwd: process.cwd(),
    env: process.env,
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    color: pc.createColors(tty),
    ...overrides,
  };
}
