/**
 * Each skill's best example for one message (stage 1's `example` signal), in typed arrays a
 * matcher reuses from message to message: at 10,000 skills with examples a message touches
 * thousands of examples, and an object per skill touched was garbage for every one of them.
 */
export class BestExamples {
  /** Skills holding an example, listed in `owners` in the order first met. */
  size = 0;
  private readonly owners: Int32Array;
  /** Per skill, its best example + 1 (0: none this message). */
  private readonly best: Int32Array;
  private readonly scores: Float64Array;

  constructor(skills: number) {
    this.owners = new Int32Array(skills);
    this.best = new Int32Array(skills);
    this.scores = new Float64Array(skills);
  }

  /** Example `example` of skill `owner` scored `score`: kept if it is the skill's first or beats its best. */
  offer(owner: number, example: number, score: number): void {
    if (this.best[owner] === 0) this.owners[this.size++] = owner;
    else if (score <= (this.scores[owner] as number)) return;
    this.best[owner] = example + 1;
    this.scores[owner] = score;
  }

  has(skill: number): boolean {
    return this.best[skill] !== 0;
  }

  /** The skill's best example (an index of the lexical index's examples); only when `has`. */
  exampleOf(skill: number): number {
    return (this.best[skill] as number) - 1;
  }

  /** Its score, 0‥1 (0 for a skill without one). */
  scoreOf(skill: number): number {
    return this.scores[skill] as number;
  }

  /** The `i`-th skill met, `i` < `size`. */
  ownerAt(i: number): number {
    return this.owners[i] as number;
  }

  /** Forget this message's examples. */
  clear(): void {
    for (let i = 0; i < this.size; i++) {
      const owner = this.owners[i] as number;
      this.best[owner] = 0;
      this.scores[owner] = 0;
    }
    this.size = 0;
  }
}
