// The highlighting facility: choices, and the stored document rendered in the worker pool with a deadline.
import { resolveLanguage } from './catalogue';
import { buildDocument, renderPlain, type HighlightInput } from './document';
import { HighlightPool } from './pool';

export { LANGUAGE_CHOICES, STYLE_CHOICES, isLanguage, isStyle, resolveLanguage, type Choice } from './catalogue';
export { renderPlain, type HighlightInput } from './document';

let settings: { workers?: number; timeoutMs?: number } = {};
let pool: HighlightPool | undefined;

/** Called once at start-up with HIGHLIGHT_WORKERS and HIGHLIGHT_TIMEOUT_MS; defaults apply otherwise. */
export function configureHighlighter(opts: { workers?: number; timeoutMs?: number }): void {
  settings = opts;
  const old = pool;
  pool = undefined;
  void old?.close();
}

/** The full document; past the deadline, the same document with the code escaped but not highlighted. */
export async function renderHighlighted(input: HighlightInput): Promise<string> {
  pool ??= new HighlightPool(settings.workers, settings.timeoutMs);
  const html = await pool.highlight(input.code, resolveLanguage(input.language));
  return html === null ? renderPlain(input) : buildDocument(input, html);
}

/** highlight.js's HTML for `code` in a language, from the pool; null past the deadline. */
export function highlightInPool(code: string, language: string): Promise<string | null> {
  pool ??= new HighlightPool(settings.workers, settings.timeoutMs);
  return pool.highlight(code, language);
}

/** A unified diff in the highlighting pool, under its deadline (jsdiff can take minutes on two long, unlike codes); null past it. */
export function diffInPool(job: Parameters<HighlightPool['diff']>[0]): Promise<string | null> {
  pool ??= new HighlightPool(settings.workers, settings.timeoutMs);
  return pool.diff(job);
}

export async function closeHighlighter(): Promise<void> {
  const old = pool;
  pool = undefined;
  await old?.close();
}
