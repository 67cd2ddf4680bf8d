import { terminalStyles } from "@skillshelf/core";
import pc from "picocolors";
import { colorEnabled } from "./color.js";

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
  /** Colours on for a TTY, off with NO_COLOR, as FORCE_COLOR says when it is set. */
  color: ReturnType<typeof pc.createColors>;
}

/**
 * The context commands run in. `out` and `err` (given or default) receive text already
 * escaped: a terminal never sees a control sequence a skill or a model wrote.
 */
export function createContext(overrides: Partial<CommandContext> = {}): CommandContext {
  const env = overrides.env ?? process.env;
  const styles = terminalStyles(
    overrides.color ?? pc.createColors(colorEnabled(env, Boolean(process.stdout.isTTY))),
  );
  const out = overrides.out ?? ((t: string) => process.stdout.write(t));
  const err = overrides.err ?? ((t: string) => process.stderr.write(t));
  return {
    cwd: overrides.cwd ?? process.cwd(),
    env,
    out: (t) => out(styles.render(t)),
    err: (t) => err(styles.render(t)),
    color: styles.colors,
  };
}
