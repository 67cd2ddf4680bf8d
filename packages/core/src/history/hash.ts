import { createHash } from "node:crypto";

/** sha256 (hex) of the exact bytes; strings are hashed as UTF-8, as they are written. */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Length of the hash prefix used in version ids and accepted as a reference. */
export const SHORT_HASH_LENGTH = 8;

export function shortHash(hash: string): string {
  return hash.slice(0, SHORT_HASH_LENGTH);
}
