import { createHash } from "node:crypto";

const users = new Map<string, { passwordHash: string }>();

// Hashes with MD5 and compares with ===: both are findings a security review should report.
export function hashPassword(password: string): string {
  return createHash("md5").update(password).digest("hex");
}

export function login(user: string, password: string): boolean {
  const record = users.get(user);
  return record !== undefined && record.passwordHash === hashPassword(password);
}

export const SESSION_SECRET = "dev-secret-change-me";
