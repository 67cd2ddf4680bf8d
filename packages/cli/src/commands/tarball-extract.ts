/**
 * Unpacking a package tarball from a source the user has not vetted. Nothing in it is
 * trusted: the whole archive is refused (nothing is kept) when one entry is a link, a
 * device or anything but a plain file or folder, when a path is absolute or climbs out
 * with `..`, or when the unpacked size, the file count or the tarball itself goes over
 * the limits. The sizes are counted as the bytes arrive, so a small gzip that inflates to
 * gigabytes stops at the limit instead of filling the disk.
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import { MAX_SKILL_FOLDER_BYTES, MAX_SKILL_FOLDER_FILES } from "./skill-copy.js";

/** A package bigger than this (gzipped) is not read at all. */
export const MAX_TARBALL_BYTES = MAX_SKILL_FOLDER_BYTES;
/** Unpacked, a package may hold a few skills' worth of files. */
export const MAX_UNPACKED_BYTES = 2 * MAX_SKILL_FOLDER_BYTES;
export const MAX_UNPACKED_FILES = 4 * MAX_SKILL_FOLDER_FILES;

/** A tarball that is not unpacked: the message says why. */
export class ArchiveRefused extends Error {}

/** Unpacks `tarball` (gzipped or not) into `into`, which must be an empty folder. */
export async function extractTarball(tarball: string, into: string): Promise<void> {
  const info = await fs.stat(tarball);
  if (info.size > MAX_TARBALL_BYTES) {
    throw new ArchiveRefused(`${path.basename(tarball)} is over ${MAX_TARBALL_BYTES / 1024 / 1024} MiB`);
  }
  const gzipped = await isGzip(tarball);
  const extract = tar.extract();
  let files = 0;
  let bytes = 0;
  const count = (more: number) => {
    bytes += more;
    if (bytes > MAX_UNPACKED_BYTES) {
      throw new ArchiveRefused(`it unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MiB`);
    }
  };
  const unpack = async () => {
    for await (const entry of extract) {
      const { header } = entry;
      const rel = safeRelativePath(header.name);
      if (header.type === "directory") {
        await fs.mkdir(path.join(into, rel), { recursive: true });
        entry.resume();
        continue;
      }
      if (header.type !== "file" && header.type !== "contiguous-file") {
        throw new ArchiveRefused(`${header.name} is a ${header.type ?? "special entry"}, not a file`);
      }
      if (++files > MAX_UNPACKED_FILES)
        throw new ArchiveRefused(`it holds more than ${MAX_UNPACKED_FILES} files`);
      count(header.size ?? 0);
      const target = path.join(into, rel);
      await fs.mkdir(path.dirname(target), { recursive: true });
      // wx: a second entry of the same path never writes through the first one. No set-id
      // bits; always readable and writable by the owner, so the copy that follows can read it.
      const handle = await fs.open(target, "wx", ((header.mode ?? 0o644) & 0o755) | 0o600);
      try {
        for await (const chunk of entry as AsyncIterable<Buffer>) await handle.write(chunk);
      } finally {
        await handle.close();
      }
    }
  };
  const input = createReadStream(tarball);
  // Bytes are counted as they inflate, before tar-stream sees them.
  let inflated = 0;
  const stages = gzipped ? [input, createGunzip(), limit()] : [input, limit()];
  function limit() {
    return new Writable({
      write(chunk: Buffer, _encoding, done) {
        inflated += chunk.length;
        if (inflated > MAX_UNPACKED_BYTES + MAX_TARBALL_BYTES) {
          done(new ArchiveRefused(`it unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MiB`));
          return;
        }
        if (extract.write(chunk)) done();
        else extract.once("drain", () => done());
      },
      final(done) {
        extract.end(() => undefined);
        done();
      },
    });
  }
  const unpacked = unpack();
  try {
    await Promise.all([
      pipeline(stages).catch((error: Error) => {
        extract.destroy(error);
        throw error;
      }),
      unpacked,
    ]);
  } catch (error) {
    input.destroy();
    extract.destroy();
    await unpacked.catch(() => undefined);
    if (error instanceof ArchiveRefused) throw error;
    throw new ArchiveRefused(`it is not a readable tarball (${(error as Error).message})`);
  }
}

/** The entry's path as a plain relative path inside the archive, or a refusal. */
function safeRelativePath(name: string): string {
  const parts = name.replaceAll("\\", "/").split("/");
  if (name.startsWith("/") || /^[a-z]:/iu.test(name) || parts.includes("..") || name.includes("\0")) {
    throw new ArchiveRefused(`${JSON.stringify(name)} points outside the package`);
  }
  const rel = parts.filter((p) => p !== "" && p !== ".").join("/");
  if (rel === "") throw new ArchiveRefused(`an entry has an empty path`);
  return rel;
}

async function isGzip(file: string): Promise<boolean> {
  const handle = await fs.open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}
