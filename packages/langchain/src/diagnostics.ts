/** Where problems core finds at run time go (e.g. a whitelisted tool name that matches none of yours). */
export type { OnDiagnostic } from "@skillshelf/core/adapter";
