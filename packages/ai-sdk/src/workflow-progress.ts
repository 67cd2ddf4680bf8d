/**
 * A workflow run's steps in the AI SDK's own tool streaming: a tool whose `execute` returns
 * an async iterable streams each yield as a preliminary tool result (`tool-result` parts with
 * `preliminary: true` in `streamText`, `preliminary` tool outputs in the UI message stream),
 * and the last yield is the tool's result, the only one the model reads. `generateText`
 * waits for that last one, so it answers as before.
 */
import { listenForWorkflowProgress, type WorkflowProgressEvent } from "@skillshelf/core/adapter";

/**
 * Runs one skill tool call. A call that starts a workflow run answers with its steps'
 * events, then its result; any other call answers exactly as `run` does.
 */
export function withStepProgress<T>(run: () => T): T | AsyncIterable<WorkflowProgressEvent | Awaited<T>> {
  const queue = new StepQueue();
  const { value, started } = listenForWorkflowProgress((event) => queue.push(event), run);
  if (!started) return value;
  return queue.drainUntil(Promise.resolve(value));
}

class StepQueue {
  private readonly pending: WorkflowProgressEvent[] = [];
  private wake: (() => void) | undefined;

  push(event: WorkflowProgressEvent): void {
    this.pending.push(event);
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Each event as it comes, then the result; a run that rejects ends the stream with its error. */
  async *drainUntil<R>(result: Promise<R>): AsyncGenerator<WorkflowProgressEvent | R> {
    let settled: { value: R } | { error: unknown } | undefined;
    result.then(
      (value) => {
        settled = { value };
        this.signal();
      },
      (error: unknown) => {
        settled = { error };
        this.signal();
      },
    );
    for (;;) {
      const next = this.pending.shift();
      if (next) {
        yield next;
        continue;
      }
      if (settled) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    if ("error" in settled) throw settled.error;
    yield settled.value;
  }
}
