// @skillshelf/ai-sdk — scaffold; the adapter issue fills this in.
export {};
