// A first-come-first-served gate letting a fixed number of tasks through at once.

export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly width: number) {}

  /** Resolves when the caller may go through; it must call leave() afterwards. */
  enter(): Promise<void> {
    if (this.active < this.width) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  leave(): void {
    const next = this.waiting.shift();
    if (next) next(); // the place passes straight to the next in line
    else this.active--;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await work();
    } finally {
      this.leave();
    }
  }
}
