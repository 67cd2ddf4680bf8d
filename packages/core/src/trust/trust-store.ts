/**
 * Where trust is recorded: one JSON file in the user's own state (`~/.skillshelf/trust.json`
 * by default), never in the repository the skills came from — a repository must not be able
 * to ship its own trust. One record per skill folder (by real path): the content hashes and
 * the security-relevant fields the user saw when they trusted it.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { atomicWrite } from "../history/atomic-write.js";
import { withFileLock } from "../history/lock.js";

export const TRUST_FILE_VERSION = 1;

/** The fields whose widening needs a new trust. */
export interface TrustedPolicy {
  /** `allowed-tools` as written; null = no whitelist (every tool). */
  allowedTools: string[] | null;
  disallowedTools: string[];
  disableModelInvocation: boolean;
  triggers: string[];
  /** The `paths:` gate; null = none (offered whatever the files); missing = a record older than this field. */
  paths?: string[] | null;
  /** What each workflow step runs (`tool:<name>`, a host function); missing in older records = none. */
  stepRuns?: string[];
}

export interface TrustRecord {
  name: string;
  trustedAt: string;
  /** Relative path → hash, as `folderDigest` gives them. */
  files: Record<string, string>;
  truncated?: boolean;
  policy: TrustedPolicy;
}

export interface TrustFile {
  version: number;
  /** Real path of a skill folder → its record. */
  folders: Record<string, TrustRecord>;
}

/** `~/.skillshelf/trust.json` (home from `home`, else the OS's). */
export function defaultTrustFile(home: string = os.homedir()): string {
  return path.join(home, ".skillshelf", "trust.json");
}

const EMPTY = (): TrustFile => ({ version: TRUST_FILE_VERSION, folders: {} });

function wellFormed(value: unknown): value is TrustFile {
  if (!value || typeof value !== "object") return false;
  const folders = (value as { folders?: unknown }).folders;
  return Boolean(folders) && typeof folders === "object" && !Array.isArray(folders);
}

function sanitize(value: TrustFile): TrustFile {
  const folders: Record<string, TrustRecord> = {};
  for (const [dir, record] of Object.entries(value.folders)) {
    const r = record as Partial<TrustRecord> | null;
    if (!r || typeof r !== "object" || !r.files || typeof r.files !== "object" || !r.policy) continue;
    const p = r.policy as Partial<TrustedPolicy>;
    folders[dir] = {
      name: typeof r.name === "string" ? r.name : "",
      trustedAt: typeof r.trustedAt === "string" ? r.trustedAt : "",
      files: Object.fromEntries(Object.entries(r.files).filter(([, h]) => typeof h === "string")) as Record<
        string,
        string
      >,
      truncated: r.truncated === true,
      policy: {
        allowedTools: Array.isArray(p.allowedTools) ? p.allowedTools.map(String) : null,
        disallowedTools: Array.isArray(p.disallowedTools) ? p.disallowedTools.map(String) : [],
        disableModelInvocation: p.disableModelInvocation === true,
        triggers: Array.isArray(p.triggers) ? p.triggers.map(String) : [],
        ...(Array.isArray(p.paths) ? { paths: p.paths.map(String) } : p.paths === null && { paths: null }),
        ...(Array.isArray(p.stepRuns) && { stepRuns: p.stepRuns.map(String) }),
      },
    };
  }
  return { version: TRUST_FILE_VERSION, folders };
}

/**
 * The trust file's records. A missing file trusts nothing; an unreadable or malformed one
 * trusts nothing either (fail closed), and `problem` says why.
 */
export async function readTrustFile(file: string): Promise<{ trust: TrustFile; problem?: string }> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT"
      ? { trust: EMPTY() }
      : { trust: EMPTY(), problem: `cannot read ${file}: ${code}` };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (!wellFormed(parsed)) return { trust: EMPTY(), problem: `${file} is not a trust file` };
    return { trust: sanitize(parsed) };
  } catch {
    return { trust: EMPTY(), problem: `${file} is not valid JSON` };
  }
}

/**
 * Change the trust file under its lock (two `skillshelf trust` runs at once both land) and
 * write it atomically (a crash never leaves half a file).
 */
export async function updateTrustFile(
  file: string,
  change: (trust: TrustFile) => void,
  options: { lockWait?: number } = {},
): Promise<TrustFile> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  return withFileLock(
    file,
    async (lock) => {
      const { trust, problem } = await readTrustFile(file);
      if (problem && !problem.startsWith("cannot read")) {
        // Never overwrite a file we cannot read as ours: the user may have hand-edited it.
        throw new Error(`${problem}; fix or remove it, then trust again`);
      }
      change(trust);
      lock.assertHeld();
      await atomicWrite(file, `${JSON.stringify(trust, null, 2)}\n`, { mode: 0o600 });
      return trust;
    },
    { wait: options.lockWait },
  );
}
