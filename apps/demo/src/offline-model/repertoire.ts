/**
 * What the offline model knows: the requests it has rules for, per skill (or with no skill).
 * `/help` in the chat lists them, so nobody has to guess what a page of rules understands;
 * the `match` patterns are also how it recognises a request for a skill the request does
 * not name ("a changelog" is release-notes' job).
 */
export interface KnownRequests {
  /** The skill the requests are for, or a label for requests answered without one. */
  skill: string;
  /** Requests as a user would type them. */
  examples: string[];
  /** Other wordings that mean this skill, beyond naming it. */
  match?: RegExp;
}

export const OFFLINE_REPERTOIRE: readonly KnownRequests[] = [
  {
    skill: "release-notes",
    examples: ["Write the release notes for everything since v1.0.0.", "Write a changelog since v1.0.0."],
    match: /\b(changelog|what changed since)\b/i,
  },
  {
    skill: "count-lines",
    examples: ["Count the lines of the files in src.", "How many lines are in docs?"],
    match: /\bhow many lines\b/i,
  },
  { skill: "batch-rename", examples: ["/batch-rename docs meeting- (only you can start it)"] },
  { skill: "meeting-digest", examples: ["Make a meeting digest of the notes in docs."] },
  {
    skill: "security-auditor",
    examples: ["Ask the security auditor to review src/auth.ts for problems."],
  },
  {
    skill: "no skill",
    examples: [
      "Summarize the changes into a commit message for me.",
      "Search the code for md5.  (or: the web: it searches the workspace)",
      "Rename the meeting notes in docs so they all start with meeting-.",
      "ok, go ahead  (continues the active skill)     /done  (ends it)",
    ],
  },
];

/** Whether a request is one of a skill's known wordings (besides naming the skill). */
export function knownRequestFor(skill: string, text: string): boolean {
  const known = OFFLINE_REPERTOIRE.find((k) => k.skill === skill);
  return known?.match?.test(text) ?? false;
}

export const OUTSIDE_REPERTOIRE =
  "That request is outside what the offline model knows (it is rules, not an LLM); /help lists the requests it has answers for.";
