/**
 * `shelf.improvements` as a shelf gets it: created at once, the improvement loop (its schema
 * checks, merge guards and diffing) imported on the first call. Every method is async
 * already, so a process that only loads and plans never loads it.
 */
import type { Improvements, ImprovementsOptions } from "./improvements.js";

export function createImprovements(options: ImprovementsOptions): Improvements {
  let loading: Promise<Improvements> | undefined;
  const loop = () =>
    (loading ??= import("./improvements.js").then((improvementsModule) =>
      improvementsModule.createImprovements(options),
    ));
  return {
    analyze: async (...args) => (await loop()).analyze(...args),
    list: async (...args) => (await loop()).list(...args),
    get: async (...args) => (await loop()).get(...args),
    preview: async (...args) => (await loop()).preview(...args),
    accept: async (...args) => (await loop()).accept(...args),
    reject: async (...args) => (await loop()).reject(...args),
    recordPositive: async (...args) => (await loop()).recordPositive(...args),
    record: async (...args) => (await loop()).record(...args),
  };
}
