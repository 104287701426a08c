// A highlighting worker thread: runs highlight.js grammars, which may take seconds, away from the event loop.
import { parentPort } from 'node:worker_threads';
import hljs from 'highlight.js';

export interface Job {
  id: number;
  code: string;
  language: string;
}

export interface Done {
  id: number;
  html: string;
}

parentPort?.on('message', (job: Job) => {
  const html = hljs.highlight(job.code, { language: job.language, ignoreIllegals: true }).value;
  parentPort!.postMessage({ id: job.id, html } satisfies Done);
});
