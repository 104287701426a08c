// File names and languages, both ways: a download's name from a snippet's title or language, and the language of a
// pasted file from its name's extension (highlight.js knows most extensions as language aliases: `py`, `rs`, `ts`…).
import { isLanguage, LANGUAGE_CHOICES, resolveLanguage } from '../../src/highlight';

/** The usual extension of the languages whose first alias is not it; any other language uses its own short name. */
const EXTENSIONS: Record<string, string> = {
  python: 'py',
  javascript: 'js',
  typescript: 'ts',
  rust: 'rs',
  ruby: 'rb',
  csharp: 'cs',
  bash: 'sh',
  shell: 'sh',
  markdown: 'md',
  yaml: 'yml',
  kotlin: 'kt',
  plaintext: 'txt',
  perl: 'pl',
  haskell: 'hs',
  erlang: 'erl',
  elixir: 'ex',
  powershell: 'ps1',
  objectivec: 'm',
  dockerfile: 'Dockerfile',
};

/** A language's display name ("Python") by its choice value (`py`, `python`). */
const DISPLAY = new Map(LANGUAGE_CHOICES.map((c) => [c.value, c.display_name]));

export const languageName = (language: string): string => DISPLAY.get(language) ?? language;

export function extensionOf(language: string): string {
  const name = resolveLanguage(language);
  return EXTENSIONS[name] ?? (/^[a-z0-9]{1,10}$/.test(name) ? name : 'txt');
}

/**
 * The name a download is saved as: the title when it already looks like a file name (`main.rs`), else the title (or
 * `snippet-<id>`) with the language's extension. Only letters, digits, `.`, `-` and `_` are kept.
 */
export function downloadName(snippet: { id: number; title: string; language: string }): string {
  const safe = snippet.title
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  if (/\.\w{1,10}$/.test(safe)) return safe;
  const extension = extensionOf(snippet.language);
  const base = safe || `snippet-${snippet.id}`;
  return extension === 'Dockerfile' ? `${base}.Dockerfile` : `${base}.${extension}`;
}

/** The language a file name says by its extension (`main.rs` is `rs`, Rust), if highlight.js knows it. */
export function languageOfFileName(name: string): string | undefined {
  const base = name.trim().split(/[/\\]/).pop() ?? '';
  if (/^dockerfile$/i.test(base)) return 'dockerfile';
  if (/^makefile$/i.test(base)) return 'makefile';
  const extension = /\.([A-Za-z0-9+#]{1,10})$/.exec(base)?.[1]?.toLowerCase();
  return extension && isLanguage(extension) ? extension : undefined;
}
