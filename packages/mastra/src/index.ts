// @skillshelf/mastra — scaffold; the adapter issue fills this in.
export {};
