// @skillshelf/langchain — scaffold; the adapter issue fills this in.
export {};
