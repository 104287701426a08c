// A gate letting a fixed number of tasks through at once: first come, first served, urgent ones ahead of the rest.

export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly urgent: (() => void)[] = [];

  constructor(private readonly width: number) {}

  /** Resolves when the caller may go through; it must call leave() afterwards. */
  enter(urgent = false): Promise<void> {
    if (this.active < this.width) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => (urgent ? this.urgent : this.waiting).push(resolve));
  }

  leave(): void {
    const next = this.urgent.shift() ?? this.waiting.shift();
    if (next) next(); // the place passes straight to the next in line
    else this.active--;
  }
}
