/**
 * Skills from an npm package: a registry package (`npm:<name>[@range]`), fetched with
 * `npm pack` (which downloads the tarball and runs nothing: `--ignore-scripts`), or a
 * tarball on disk. Either way the tarball is unpacked by tarball-extract.ts, never by a
 * tool that would follow its links, and its version and integrity go on record.
 *
 * Only a registry name and a semver range or a dist-tag are accepted after `npm:`: npm
 * would also take `name@https://…`, `name@file:…` or `name@github:…`, which are not the
 * registry and may run a package's `prepare` script.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import semver from "semver";
import { extractTarball } from "./tarball-extract.js";

const run = promisify(execFile);
const NPM_TIMEOUT_MS = 120_000;
const PACKAGE_NAME = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/u;
const DIST_TAG = /^[a-z][\w.-]*$/iu;

export interface NpmSpec {
  name: string;
  /** A semver range or a dist-tag; `latest` when none was given. */
  range: string;
}

/** `npm:<name>[@range]` parsed, or why it is not one skillshelf installs from. */
export function parseNpmSpec(spec: string): NpmSpec | string {
  const body = spec.slice("npm:".length);
  const at = body.indexOf("@", 1);
  const name = at === -1 ? body : body.slice(0, at);
  const range = at === -1 ? "latest" : body.slice(at + 1);
  if (!PACKAGE_NAME.test(name) || name.length > 214)
    return `${JSON.stringify(name)} is not an npm package name`;
  if (!(DIST_TAG.test(range) || semver.validRange(range) !== null)) {
    return `${JSON.stringify(range)} is not a version range or a dist-tag (only registry packages can be added with npm:)`;
  }
  return { name, range };
}

export interface UnpackedPackage {
  /** The package's root folder (the tarball's `package/`). */
  dir: string;
  name?: string;
  version?: string;
  /** Subresource integrity of the tarball (sha512). */
  integrity: string;
  /** Where the package says its skills are (`"skillshelf": { "skills": "…" }` in package.json). */
  skillsFolder?: string;
}

/** Downloads the registry package into `scratch` and unpacks it there. */
export async function packFromRegistry(
  spec: NpmSpec,
  scratch: string,
  env: NodeJS.ProcessEnv,
): Promise<UnpackedPackage> {
  const { stdout } = await run(
    "npm",
    ["pack", `${spec.name}@${spec.range}`, "--json", "--ignore-scripts", "--pack-destination", scratch],
    {
      cwd: scratch,
      timeout: NPM_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
      env: npmEnvironment(env),
    },
  );
  const [packed] = JSON.parse(stdout) as { filename?: string; integrity?: string }[];
  if (!packed?.filename) throw new Error(`npm pack printed no file name`);
  const unpacked = await unpackTarball(path.join(scratch, path.basename(packed.filename)), scratch);
  if (packed.integrity && packed.integrity !== unpacked.integrity) {
    throw new Error(`the tarball npm fetched does not match the integrity npm reported`);
  }
  return unpacked;
}

/** Unpacks a tarball into `scratch/unpacked` and reads what its package.json says. */
export async function unpackTarball(tarball: string, scratch: string): Promise<UnpackedPackage> {
  const integrity = await sha512Integrity(tarball);
  const into = path.join(scratch, "unpacked");
  await fs.mkdir(into);
  await extractTarball(tarball, into);
  // npm's tarballs hold one folder (`package/`); a hand-made one may hold the files directly.
  const top = await fs.readdir(into, { withFileTypes: true });
  const dir = top.length === 1 && top[0]!.isDirectory() ? path.join(into, top[0]!.name) : into;
  const manifest = await readManifest(dir);
  return { dir, integrity, ...manifest };
}

/** The fields of a package.json skillshelf reads; a missing or malformed one reads as none. */
export async function readManifest(dir: string): Promise<Omit<UnpackedPackage, "dir" | "integrity">> {
  let json: { name?: unknown; version?: unknown; skillshelf?: { skills?: unknown } };
  try {
    json = JSON.parse(await fs.readFile(path.join(dir, "package.json"), "utf8"));
  } catch {
    return {};
  }
  const skills = json?.skillshelf?.skills;
  return {
    ...(typeof json.name === "string" && { name: json.name }),
    ...(typeof json.version === "string" && { version: json.version }),
    ...(typeof skills === "string" && { skillsFolder: skills }),
  };
}

async function sha512Integrity(file: string): Promise<string> {
  const hash = createHash("sha512");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `sha512-${hash.digest("base64")}`;
}

/** npm with the user's registry settings and credentials, and no scripts whatever its config says. */
function npmEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    ...(env.HOME && { HOME: env.HOME }),
  };
  for (const [key, value] of Object.entries(env)) {
    if (/^(?:https?|no)_proxy$/iu.test(key)) kept[key] = value;
    else if (/^npm_config_/iu.test(key) && !/ignore.scripts|script.shell|node.options/iu.test(key))
      kept[key] = value;
  }
  return { ...kept, npm_config_ignore_scripts: "true", npm_config_update_notifier: "false" };
}
