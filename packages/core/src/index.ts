// Public API of @skillshelf/core. Each feature module exports what hosts and adapters need.

export type { RefreshResult, Shelf, ShelfOptions } from "./shelf.js";
export type * from "./types.js";
