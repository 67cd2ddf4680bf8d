import type { RunOutcome } from "@skillshelf/core";
import type { Demo } from "./demo.js";
import type { DemoEvent } from "./events.js";
import { type Decider, improveSkill, transcriptOf } from "./improve.js";

/** One scripted conversation turn of the story. */
export interface Beat {
  thread: string;
  user: string;
}

export interface Chapter {
  title: string;
  note: string;
  beats: Beat[];
}

/**
 * The story the demo tells, the same on every framework. Each chapter is its own
 * conversation (thread), as a user starts a new chat for a new task.
 */
export const CHAPTERS: Chapter[] = [
  {
    title: "A skill with a tool whitelist",
    note: "release-notes may use only git_log and read_file while it is active",
    beats: [{ thread: "release", user: "Write the release notes for everything since v1.0.0." }],
  },
  {
    title: "A near miss, stopped by an exclusion",
    note: "summarize-diff triggers on 'summarize the changes', but it is not for commit messages",
    beats: [{ thread: "commit", user: "Summarize the changes into a commit message for me." }],
  },
  {
    title: "Delegating to a role the user added as a file",
    note: "security-auditor is a role skill: one Markdown file in .skillshelf/skills/roles/, no code",
    beats: [{ thread: "team", user: "Ask the security auditor to review src/auth.ts for problems." }],
  },
  {
    title: "A skill only the user can start",
    note: "batch-rename has disable-model-invocation: the model is never offered it; /batch-rename runs it",
    beats: [
      { thread: "rename", user: "Rename the meeting notes in docs so they all start with meeting-." },
      { thread: "rename", user: "/batch-rename docs meeting-" },
    ],
  },
  {
    title: "A skill that brings a script",
    note: "count-lines runs its scripts/count.sh; every run asks the user first",
    beats: [{ thread: "count", user: "Count the lines of the files in src." }],
  },
  {
    title: "A workflow skill: steps with contracts and a check, run by core",
    note: "meeting-digest has three steps (collect → one line per meeting → check); the user confirms the run first",
    beats: [{ thread: "digest", user: "Make a meeting digest of the notes in docs." }],
  },
];

/** Who answers a script's "run it?" in the non-interactive story, as the transcript says. */
export const SCRIPTED_USER = "the scripted user (a non-interactive run; --chat lets you decide)";

export const IMPROVE_CHAPTER = {
  title: "Improving the skill that was used, with the user in control",
  note: "a proposal from the run, the user's decision, the version bump, the diff, the next run, a rollback",
};

/** The first chapter's request again, in a new conversation, once the improvement is accepted. */
export const NEXT_RUN: Beat = { thread: "release-next", user: CHAPTERS[0]!.beats[0]!.user };

/** The next run, and what it did differently from the first: the refused calls of each. */
export async function tellNextRun(demo: Demo, skill: string, first: string): Promise<void> {
  const version = demo.shelf.get(skill)?.version;
  demo.bus.emit({
    type: "notice",
    text: `the next run loads ${skill}${version ? ` ${version}` : ""} (the accepted version) from the sandbox shelf`,
  });
  const from = demo.bus.events.length;
  await tell(demo, NEXT_RUN);
  const refused = (events: readonly DemoEvent[]) =>
    events.flatMap((e) => (e.type === "tool-blocked" && e.skill === skill ? [e.tool] : []));
  const before = refused(demo.bus.events.slice(0, from).filter(inThread(demo.bus.events, first)));
  const after = refused(demo.bus.events.slice(from));
  demo.bus.emit({
    type: "notice",
    text: `the difference: refused calls ${before.length} → ${after.length}${before.length > after.length ? ` (no ${[...new Set(before)].join(", ")} this time)` : ""}`,
  });
}

/** Whether an event belongs to `thread` (events between that thread's user message and the next one). */
function inThread(events: readonly DemoEvent[], thread: string): (e: DemoEvent) => boolean {
  const owner = new Map<DemoEvent, string>();
  let current = "";
  for (const e of events) {
    if (e.type === "user") current = e.thread;
    owner.set(e, current);
  }
  return (e) => owner.get(e) === thread;
}

/** What the scripted user says about the release-notes run (the analysis reads it). */
export const RELEASE_RUN_OUTCOME: RunOutcome = {
  status: "partial",
  feedback: "The notes are right, but it tried to save them to a file; I only wanted them in the answer.",
};

/** One user message through the team, with the events a reader follows. */
export async function tell(demo: Demo, beat: Beat): Promise<string> {
  await demo.shelf.refresh();
  demo.bus.emit({ type: "user", thread: beat.thread, text: beat.user });
  const answer = await demo.runner.send(beat.thread, beat.user);
  demo.bus.emit({ type: "answer", thread: beat.thread, text: answer });
  return answer;
}

export async function runStory(demo: Demo, decide: Decider): Promise<void> {
  for (const [i, chapter] of CHAPTERS.entries()) {
    demo.bus.emit({ type: "chapter", index: i + 1, title: chapter.title, note: chapter.note });
    for (const beat of chapter.beats) await tell(demo, beat);
  }
  demo.bus.emit({ type: "chapter", index: CHAPTERS.length + 1, ...IMPROVE_CHAPTER });
  await improveSkill({
    shelf: demo.shelf,
    bus: demo.bus,
    generate: demo.runner.generate,
    skill: "release-notes",
    transcript: transcriptOf(demo.bus.events, "release"),
    outcome: RELEASE_RUN_OUTCOME,
    decide,
    nextRun: () => tellNextRun(demo, "release-notes", "release"),
    rollback: true,
  });
}
