// apps/demo — scaffold; issue 8 fills this in.
export {};
