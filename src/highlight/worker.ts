// A highlighting worker thread: runs highlight.js grammars, which may take seconds, away from the event loop; and
// diffs of two revisions (jsdiff's Myers diff is quadratic in the worst case), for the same reason.
import { parentPort } from 'node:worker_threads';
import hljs from 'highlight.js';
import { createTwoFilesPatch } from 'diff';

/** A unified diff of `oldCode` to `newCode`, the files named and labelled as given. */
export interface DiffJob {
  name: string;
  oldCode: string;
  newCode: string;
  oldLabel: string;
  newLabel: string;
  /** How long the diff may run before giving up (jsdiff's own timeout, ms). */
  timeoutMs: number;
  /** The most changed lines (removed plus added) the diff looks for before giving up (jsdiff's maxEditLength); none if unset. */
  maxEditLength?: number;
}

export interface Job {
  id: number;
  code: string;
  language: string;
  diff?: DiffJob;
}

/** The worker's first message: its script (highlight.js, jsdiff) has loaded. */
export interface Ready {
  ready: true;
}

export interface Done {
  id: number;
  /** The highlighted HTML, or the patch (null: the diff ran out of time). */
  html: string | null;
}

function diff(job: DiffJob): string | null {
  const patch = createTwoFilesPatch(job.name, job.name, job.oldCode, job.newCode, job.oldLabel, job.newLabel, {
    timeout: job.timeoutMs,
    maxEditLength: job.maxEditLength,
  });
  return patch ?? null;
}

parentPort?.on('message', (job: Job) => {
  const html = job.diff
    ? diff(job.diff)
    : hljs.highlight(job.code, { language: job.language, ignoreIllegals: true }).value;
  parentPort!.postMessage({ id: job.id, html } satisfies Done);
});
parentPort?.postMessage({ ready: true } satisfies Ready);
