/**
 * A throwaway PostgreSQL server for the tests: the machine's own binaries (`initdb`,
 * `pg_ctl`), a temp folder, a free loopback port, trust auth for that port only, stopped and
 * removed afterwards. initdb refuses to run as root, so under root the server runs as the
 * `postgres` user (Debian's package creates it), and the folder is handed to that user.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PostgresServer {
  url: string;
  stop(): Promise<void>;
}

/** The folder holding initdb and pg_ctl, newest major version first; undefined when there is none. */
export function findPostgresBin(): string | undefined {
  const fromEnv = process.env.SKILLSHELF_PG_BIN;
  if (fromEnv && existsSync(join(fromEnv, "initdb"))) return fromEnv;
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], "bin");
  }
  const which = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  const found = which.stdout.trim();
  return found ? join(found, "..") : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export async function startPostgres(bin: string): Promise<PostgresServer> {
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "skillshelf-pg-"));
  const data = join(dir, "data");
  const run = (command: string, args: string[]) => {
    const file = join(bin, command);
    if (root) execFileSync("runuser", ["-u", "postgres", "--", file, ...args], { stdio: "pipe" });
    else execFileSync(file, args, { stdio: "pipe" });
  };
  if (root) execFileSync("chown", ["postgres:", dir]);
  try {
    run("initdb", [
      "-D",
      data,
      "-U",
      "skillshelf",
      "-A",
      "trust",
      "--no-sync",
      "-E",
      "UTF8",
      "--no-instructions",
    ]);
    const port = await freePort();
    // The socket goes into the temp folder (the default one needs a system folder).
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
    run("pg_ctl", ["-D", data, "-o", settings, "-l", join(dir, "server.log"), "-w", "-t", "60", "start"]);
    return {
      url: `postgres://skillshelf@127.0.0.1:${port}/postgres`,
      async stop() {
        try {
          run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL from ${bin}: ${(error as Error).message}\n${stderr}`);
  }
}
