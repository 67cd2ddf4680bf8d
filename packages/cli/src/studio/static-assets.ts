/**
 * The page's own files, read once at start from a fixed folder into memory. A request names
 * an asset by its exact file name; nothing in a URL is ever joined to a path, so no request
 * can reach a file outside this folder, whatever it encodes.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface Asset {
  type: string;
  body: Buffer;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

/**
 * Where the page's files are: beside this module in the sources, and in the published
 * package too (it ships `src/`), where the compiled module sits in `dist/studio/`.
 */
export function assetFolder(): string {
  const candidates = [
    new URL("./public/", import.meta.url),
    new URL("../../src/studio/public/", import.meta.url),
  ];
  for (const candidate of candidates) {
    const dir = fileURLToPath(candidate);
    if (existsSync(path.join(dir, "index.html"))) return dir;
  }
  throw new Error("skillshelf studio: the page's files are missing from the package (src/studio/public)");
}

/** Every regular file of `dir` (not its sub-folders) with a known type, by file name. */
export function loadAssets(dir: string = assetFolder()): ReadonlyMap<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[path.extname(name)];
    const file = path.join(dir, name);
    if (type && statSync(file).isFile()) assets.set(name, { type, body: readFileSync(file) });
  }
  return assets;
}
