import type { Skill } from "../../types.js";
import { testSkill } from "./skill.js";

/**
 * Twenty everyday skills, written as people write them: overlapping verbs ("write", "create",
 * "help", "写"), a few triggers, exclusions and examples, English and Chinese. The shelf of a
 * new user, for the "no candidate on one shared generic word" cases.
 */
export function everydayShelf(): Skill[] {
  return [
    testSkill({
      name: "writing-coach",
      description:
        "Improve the writing of articles, essays and blog posts: structure, tone, headlines. 写作指导。",
      whenToUse: "When the user wants help writing or editing prose for readers.",
      exclusions: ["headline", "标题"],
      examples: ["help me write a better intro for my blog post", "帮我润色这篇文章"],
    }),
    testSkill({
      name: "write-tests",
      description:
        "Write unit tests for existing code with vitest or jest, and make failing tests pass. 写单元测试。",
      triggers: ["write tests", "unit test", "单元测试"],
      examples: ["write tests for the parser module", "add a unit test for this function"],
    }),
    testSkill({
      name: "sql-query",
      description:
        "Write and optimise SQL queries for PostgreSQL and MySQL: joins, indexes, query plans. 写 SQL 查询。",
      triggers: ["sql", "query plan"],
      examples: ["write a query that joins orders and customers", "why is this postgres query slow"],
    }),
    testSkill({
      name: "commit-message",
      description: "Write a conventional commit message from the staged git diff. 写提交信息。",
      triggers: ["commit message"],
      examples: ["write a commit message for these changes"],
    }),
    testSkill({
      name: "email-draft",
      description:
        "Draft and write professional emails and replies: follow-ups, requests, apologies. 写邮件、回复邮件。",
      examples: [
        "draft a polite follow-up email to the client",
        "reply to this email and decline the meeting",
      ],
    }),
    testSkill({
      name: "translate",
      description: "Translate text between English, Chinese, Japanese and other languages. 翻译。",
      triggers: ["translate", "翻译"],
      examples: ["translate this paragraph into Chinese", "把这段话翻译成英文"],
    }),
    testSkill({
      name: "summarize",
      description: "Summarise long documents, meeting notes, papers or threads into key points. 总结摘要。",
      triggers: ["summarize", "summarise", "tl;dr", "总结"],
      examples: ["summarise these meeting notes", "give me the key points of this paper"],
    }),
    testSkill({
      name: "code-review",
      description: "Review a pull request or diff for bugs, readability and security issues.",
      triggers: ["code review", "review this pr"],
      examples: ["review my pull request", "is there a bug in this diff"],
    }),
    testSkill({
      name: "debug-error",
      description: "Find the cause of an error message or stack trace and suggest a fix.",
      examples: ["why do I get TypeError undefined is not a function", "help me debug this stack trace"],
    }),
    testSkill({
      name: "regex-helper",
      description: "Build and explain regular expressions; test them against sample strings.",
      triggers: ["regex", "regular expression", "正则"],
      examples: ["write a regex that matches email addresses"],
    }),
    testSkill({
      name: "git-helper",
      description: "Git help: undo commits, resolve merge conflicts, rebase, cherry-pick, branches.",
      triggers: ["merge conflict", "git rebase"],
      examples: ["how do I undo my last commit", "resolve this merge conflict"],
    }),
    testSkill({
      name: "deploy-prod",
      description: "Deploy the application to production with the release checklist.",
      triggers: ["deploy to production"],
      exclusions: ["staging"],
    }),
    testSkill({
      name: "docker-compose",
      description: "Create and fix Dockerfiles and docker-compose files for local development.",
      triggers: ["docker", "dockerfile"],
      examples: ["make a docker compose file for postgres and redis"],
    }),
    testSkill({
      name: "meeting-notes",
      description: "Turn a meeting transcript into notes with decisions and action items. 会议纪要。",
      examples: ["make meeting notes from this transcript", "整理会议纪要"],
    }),
    testSkill({
      name: "slide-deck",
      description: "Create a slide deck outline and speaker notes for a presentation. 制作幻灯片。",
      examples: ["make slides for my quarterly review", "帮我做一个演示文稿"],
    }),
    testSkill({
      name: "spreadsheet-formula",
      description: "Write Excel and Google Sheets formulas: VLOOKUP, pivot tables, conditional formatting.",
      triggers: ["excel", "vlookup", "google sheets"],
      examples: ["a formula to sum column B when column A says paid"],
    }),
    testSkill({
      name: "recipe-planner",
      description:
        "Plan meals and recipes for the week from what is in the fridge, with a shopping list. 做菜食谱。",
      examples: ["what can I cook with eggs, rice and spinach", "plan dinners for this week"],
    }),
    testSkill({
      name: "travel-itinerary",
      description: "Plan a travel itinerary: flights, hotels, day-by-day plans and budgets. 旅行计划。",
      examples: ["plan a three-day trip to Kyoto", "帮我规划去成都的行程"],
    }),
    testSkill({
      name: "resume-review",
      description: "Review and improve a resume or CV for a job application. 简历修改。",
      triggers: ["resume", "cv", "简历"],
      examples: ["improve my resume for a data analyst role"],
    }),
    testSkill({
      name: "pdf-tools",
      description: "Extract text and tables from PDF files, merge or split PDFs, fill PDF forms.",
      triggers: ["pdf"],
      examples: ["extract the tables from this pdf", "merge these two pdfs"],
    }),
  ];
}
