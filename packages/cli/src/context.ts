import { terminalStyles } from "@skillshelf/core";
import pc from "picocolors";

/** What a command may touch: injected so tests capture output instead of spawning. */
export interface CommandContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Everything printed goes through here. Text from skill files and proposals is hostile
   * input: `createContext` escapes terminal controls in it (only `color`'s own styles pass).
   */
  out(text: string): void;
  err(text: string): void;
  /** Colours on only for a TTY (and never with NO_COLOR). */
  color: ReturnType<typeof pc.createColors>;
}

/**
 * The context commands run in. `out` and `err` (given or default) receive text already
 * escaped: a terminal never sees a control sequence a skill or a model wrote.
 */
export function createContext(overrides: Partial<CommandContext> = {}): CommandContext {
  const tty = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  const styles = terminalStyles(overrides.color ?? pc.createColors(tty));
  const out = overrides.out ?? ((t: string) => process.stdout.write(t));
  const err = overrides.err ?? ((t: string) => process.stderr.write(t));
  return {
    cwd: overrides.cwd ?? process.cwd(),
    env: overrides.env ?? process.env,
    out: (t) => out(styles.render(t)),
    err: (t) => err(styles.render(t)),
    color: styles.colors,
  };
}
