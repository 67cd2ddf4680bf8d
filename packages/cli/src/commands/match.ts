import type { CommandContext } from "../context.js";

// SCAFFOLD: not implemented yet; the owning work stream replaces this file.
export async function run(_args: string[], ctx: CommandContext): Promise<number> {
  ctx.err("skillshelf match: not implemented yet\n");
  return 2;
}
