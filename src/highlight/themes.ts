// Style sheets: every theme highlight.js ships (base16 ones as `base16/<name>`) and `friendly`, Pygments' default palette on highlight.js classes.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const STYLES_DIR = path.join(path.dirname(require.resolve('highlight.js/package.json')), 'styles');

/** Pygments' `friendly` palette (background, comment, keyword, string, number…) mapped onto highlight.js classes. */
const FRIENDLY = `.hljs { background: #f0f0f0; color: #000000; }
.hljs-comment, .hljs-quote { color: #60a0b0; font-style: italic; }
.hljs-keyword, .hljs-selector-tag, .hljs-literal { color: #007020; font-weight: bold; }
.hljs-built_in, .hljs-meta { color: #007020; }
.hljs-string, .hljs-doctag, .hljs-attr, .hljs-attribute { color: #4070a0; }
.hljs-number { color: #40a070; }
.hljs-operator { color: #666666; }
.hljs-title, .hljs-title.function_ { color: #06287e; }
.hljs-title.class_ { color: #0e84b5; font-weight: bold; }
.hljs-type { color: #902000; }
.hljs-variable, .hljs-template-variable { color: #bb60d5; }
.hljs-name, .hljs-selector-id, .hljs-selector-class { color: #062873; font-weight: bold; }
.hljs-regexp { color: #235388; }
.hljs-symbol, .hljs-bullet { color: #517918; }
.hljs-subst { color: #70a0d0; font-style: italic; }
.hljs-section { color: #000080; font-weight: bold; }
.hljs-deletion { color: #a00000; }
.hljs-addition { color: #00a000; }
.hljs-emphasis { font-style: italic; }
.hljs-strong { font-weight: bold; }
.hljs-link { text-decoration: underline; }
`;

function themeFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of readdirSync(STYLES_DIR)) {
    if (file.endsWith('.css') && !file.endsWith('.min.css')) files.set(file.slice(0, -4), path.join(STYLES_DIR, file));
  }
  for (const file of readdirSync(path.join(STYLES_DIR, 'base16'))) {
    if (file.endsWith('.css') && !file.endsWith('.min.css')) files.set(`base16/${file.slice(0, -4)}`, path.join(STYLES_DIR, 'base16', file));
  }
  return files;
}

const FILES = themeFiles();
export const THEME_NAMES: readonly string[] = [...FILES.keys(), 'friendly'];

const cache = new Map<string, string>([['friendly', FRIENDLY]]);

/** The CSS of a style, read once and kept. */
export function themeCss(style: string): string {
  let css = cache.get(style);
  if (css === undefined) {
    const file = FILES.get(style);
    css = file ? readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').trim() + '\n' : FRIENDLY;
    cache.set(style, css);
  }
  return css;
}
