export { MIGRATIONS, type MigrateResult, type Migration, migrate } from "./migrations.js";
export { createPostgresStore, type PostgresStore, type PostgresStoreOptions } from "./postgres-store.js";
export type { PostgresUsageStore } from "./usage.js";
