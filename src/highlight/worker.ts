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
  /** Compare lines without their trailing CR (jsdiff's stripTrailingCr): a CRLF and an LF line are the same line. */
  stripTrailingCr?: boolean;
}

export interface Job {
  id: number;
  code: string;
  language: string;
  diff?: DiffJob;
  /** Guess the language of `code` (highlight.js's highlightAuto over LIKELY) rather than highlight it. */
  detect?: boolean;
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
    stripTrailingCr: job.stripTrailingCr,
  });
  return patch ?? null;
}

/**
 * The languages a guess chooses among: the common ones (every grammar on every paste would take seconds), the most
 * pasted first, since highlightAuto gives a tie to the language that comes first (highlight.js's core.js).
 */
const LIKELY = [
  'python',
  'javascript',
  'typescript',
  'bash',
  'java',
  'go',
  'rust',
  'c',
  'cpp',
  'csharp',
  'php',
  'ruby',
  'sql',
  'json',
  'yaml',
  'xml',
  'markdown',
  'css',
  'kotlin',
  'swift',
  'diff',
  'dockerfile',
  'makefile',
  'ini',
  'lua',
  'perl',
  'scss',
];

/** The first characters are enough to tell a language, and bound the guess's time. */
const DETECT_CHARS = 4000;

parentPort?.on('message', (job: Job) => {
  const html = job.diff
    ? diff(job.diff)
    : job.detect
      ? (hljs.highlightAuto(job.code.slice(0, DETECT_CHARS), LIKELY).language ?? null)
      : hljs.highlight(job.code, { language: job.language, ignoreIllegals: true }).value;
  parentPort!.postMessage({ id: job.id, html } satisfies Done);
});
parentPort?.postMessage({ ready: true } satisfies Ready);
