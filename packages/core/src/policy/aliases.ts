/**
 * Tool aliases: how a whitelist written for one host (Claude Code's `Read`, `Bash(git:*)`)
 * names the tools of another (`read_file`, `execute`). Keys are whitelist entries (or their
 * base name, `Bash` for `Bash(git:*)`); values are host tool names or globs.
 */
export type ToolAliases = Readonly<Record<string, string | readonly string[]>>;

/**
 * The common names of Claude Code's built-in tools in other hosts (deepagents, Mastra
 * workspaces, the usual MCP file/shell servers). Exact names only, never globs: a default
 * must not quietly grant more than the skill author meant. A host's own `toolAliases`
 * replace an entry here key by key.
 */
export const defaultToolAliases: ToolAliases = {
  Read: ["read_file", "readFile", "view_file", "cat"],
  Write: ["write_file", "writeFile", "create_file"],
  Edit: ["edit_file", "editFile", "str_replace", "apply_patch"],
  MultiEdit: ["edit_file", "editFile", "apply_patch"],
  NotebookEdit: ["edit_notebook", "notebook_edit"],
  Grep: ["grep", "search_files", "search_code", "ripgrep"],
  Glob: ["glob", "find_files", "list_files"],
  LS: ["ls", "list_files", "list_directory"],
  Bash: ["bash", "shell", "execute", "run_command", "run_shell_command", "terminal"],
  WebSearch: ["web_search", "search_web", "internet_search"],
  WebFetch: ["web_fetch", "fetch_url", "fetch", "http_get"],
  TodoWrite: ["write_todos", "todo_write"],
  Task: ["task", "delegate"],
};
