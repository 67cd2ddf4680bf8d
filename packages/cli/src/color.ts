/**
 * Whether output gets colour. FORCE_COLOR set turns it on (any value but 0/false) or off
 * (0/false), and wins over NO_COLOR as it does in Node itself; NO_COLOR non-empty turns it
 * off (no-color.org); otherwise colour only on a terminal.
 */
export function colorEnabled(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !/^(0|false)$/i.test(force);
  if (env.NO_COLOR) return false;
  return isTTY;
}
