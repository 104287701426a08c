// Diffs of two revisions on workers of their own, apart from the highlighting ones that saves and reads wait for
// (docs/configuration.md, "Diffs and searches"): a diff never takes their time. A small change is diffed in a quick
// lane of its own, so diffs of two long, unlike codes that fill the pool hold up no other client's one-line change.
import { HighlightPool } from './pool';
import type { DiffJob } from './worker';

export interface DifferOptions {
  /** Workers for diffs of more than a few changed lines. */
  workers: number;
  /** The deadline of one diff, queued or running (ms). */
  timeoutMs: number;
  /** The most changed lines a diff looks for before giving up (jsdiff's maxEditLength); 0: no bound but the deadline. */
  maxChangedLines: number;
}

/**
 * Up to this many lines outside the two codes' common first and last lines, a diff is quick: the changed middle is
 * short, so jsdiff's work is about the length of the codes (measured: a one-line change in 50,000 lines, 0.12 s on
 * 2 shared cores, 2026-11-25).
 */
export const QUICK_CHANGED_LINES = 100;

/**
 * The lines of `a` and `b` between their common first lines and their common last lines (as counted by line breaks),
 * in one pass over each: what a diff of the two has to look at beside walking their common parts.
 */
export function changedLines(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let start = 0;
  while (start < n && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  if (start === n && a.length === b.length) return 0;
  start = start && a.lastIndexOf('\n', start - 1) + 1;
  let end = 0;
  while (end < n - start && a.charCodeAt(a.length - 1 - end) === b.charCodeAt(b.length - 1 - end)) end++;
  // Whole lines only: the common end starts a line in both codes.
  const startsLine = (s: string, at: number) => at === 0 || s.charCodeAt(at - 1) === 10;
  while (end > 0 && !(startsLine(a, a.length - end) && startsLine(b, b.length - end))) end--;
  return linesIn(a, start, a.length - end) + linesIn(b, start, b.length - end);
}

/** The lines `s` touches from `from` to `to` (a line without its break counts). */
function linesIn(s: string, from: number, to: number): number {
  let lines = from < to ? 1 : 0;
  for (let i = s.indexOf('\n', from); i !== -1 && i < to - 1; i = s.indexOf('\n', i + 1)) lines++;
  return lines;
}

export class Differ {
  private readonly pool: HighlightPool;
  private readonly quick: HighlightPool;

  constructor(private readonly opts: DifferOptions) {
    this.pool = new HighlightPool(opts.workers, opts.timeoutMs);
    this.quick = new HighlightPool(1, opts.timeoutMs);
  }

  /** A unified diff, or null when the revisions differ in more lines than the bound, or past the deadline. */
  diff(job: Omit<DiffJob, 'timeoutMs' | 'maxEditLength'>): Promise<string | null> {
    const lane = changedLines(job.oldCode, job.newCode) <= QUICK_CHANGED_LINES ? this.quick : this.pool;
    return lane.diff({ ...job, maxEditLength: this.opts.maxChangedLines || undefined });
  }

  /** A patch highlighted as `diff` (its page), in the quick lane: linear in the patch, never behind a long diff; null past the deadline. */
  highlight(patch: string): Promise<string | null> {
    return this.quick.highlight(patch, 'diff');
  }

  /** Diffs running or waiting in the pool of long diffs, and in the quick lane. */
  get load(): { pool: number; quick: number } {
    return { pool: this.pool.load, quick: this.quick.load };
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.close(), this.quick.close()]);
  }
}
