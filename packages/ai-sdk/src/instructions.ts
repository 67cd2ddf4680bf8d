import type { Instructions, SystemModelMessage } from "ai";

/**
 * The host's instructions followed by skillshelf's block, as system messages. Skill text
 * goes through `instructions`, never into `messages`: AI SDK 7 rejects system messages
 * there unless `allowSystemInMessages` is set.
 */
export function withSkillInstructions(
  base: Instructions | undefined,
  skillText: string,
): SystemModelMessage[] {
  const messages: SystemModelMessage[] =
    base === undefined ? [] : typeof base === "string" ? [{ role: "system", content: base }] : [base].flat();
  if (skillText.trim()) messages.push({ role: "system", content: skillText });
  return messages;
}
