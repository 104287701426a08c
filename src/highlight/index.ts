// The highlighting facility: choices, and the stored document rendered in a worker pool with a deadline.
import { resolveLanguage } from './catalogue';
import { buildDocument, renderPlain, type HighlightInput } from './document';
import { HighlightPool } from './pool';

export { LANGUAGE_CHOICES, STYLE_CHOICES, isLanguage, isStyle, resolveLanguage, type Choice } from './catalogue';
export { documentLines, renderPlain, type HighlightInput } from './document';
export { Differ } from './differ';

/** Renders stored documents in a pool of workers of its own (started on first use), each job under the deadline. */
export class Highlighter {
  private readonly pool: HighlightPool;

  constructor(opts: { workers?: number; timeoutMs?: number } = {}) {
    this.pool = new HighlightPool(opts.workers, opts.timeoutMs);
  }

  /** The full document; past the deadline, the same document with the code escaped but not highlighted. */
  async render(input: HighlightInput): Promise<string> {
    const html = await this.pool.highlight(input.code, resolveLanguage(input.language));
    return html === null ? renderPlain(input) : buildDocument(input, html);
  }

  /** highlight.js's HTML for `code` in a language; null past the deadline. */
  highlight(code: string, language: string): Promise<string | null> {
    return this.pool.highlight(code, language);
  }

  /** The language highlight.js guesses for `code` among the common ones; null when none (the paste page's guess). */
  detectLanguage(code: string): Promise<string | null> {
    return this.pool.detect(code);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
