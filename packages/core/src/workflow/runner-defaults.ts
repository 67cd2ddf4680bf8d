/** The runner's defaults, apart from the runner so that reading them does not load it. */
export const DEFAULT_STEP_TIMEOUT_SECONDS = 120;
export const DEFAULT_STEP_RETRIES = 2;
export const DEFAULT_MAX_OUTPUT = 8_000;
