/**
 * Starts one PostgreSQL server for the package's test run (each test file then uses a schema
 * of its own) and stops it at the end. Without PostgreSQL binaries the tests skip with one
 * line; under CI=true they must run, so a missing server fails the run instead.
 */
import type { TestProject } from "vitest/node";
import { findPostgresBin, startPostgres } from "./postgres-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseSkip: string;
  }
}

export default async function setup(project: TestProject) {
  const bin = findPostgresBin();
  if (!bin) {
    const why =
      "no PostgreSQL binaries (initdb, pg_ctl) on this machine: install Debian's postgresql package (apt-get install -y postgresql) to run them";
    if (process.env.CI === "true")
      throw new Error(`@skillshelf/postgres tests must run under CI, but there are ${why}`);
    console.info(`skipped: the PostgreSQL tests, ${why}`);
    project.provide("databaseUrl", "");
    project.provide("databaseSkip", why);
    return;
  }
  const server = await startPostgres(bin);
  project.provide("databaseUrl", server.url);
  project.provide("databaseSkip", "");
  return () => server.stop();
}
