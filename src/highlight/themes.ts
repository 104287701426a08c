// Style sheets: every theme highlight.js ships (base16 ones as `base16/<name>`) and every Pygments style it lacks, on highlight.js classes.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PYGMENTS_PALETTES, paletteCss } from './pygments-themes';

const STYLES_DIR = path.join(path.dirname(require.resolve('highlight.js/package.json')), 'styles');

function themeFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of readdirSync(STYLES_DIR)) {
    if (file.endsWith('.css') && !file.endsWith('.min.css')) files.set(file.slice(0, -4), path.join(STYLES_DIR, file));
  }
  for (const file of readdirSync(path.join(STYLES_DIR, 'base16'))) {
    if (file.endsWith('.css') && !file.endsWith('.min.css'))
      files.set(`base16/${file.slice(0, -4)}`, path.join(STYLES_DIR, 'base16', file));
  }
  return files;
}

const FILES = themeFiles();
/** Pygments styles highlight.js has no theme of the same name for (`default`, `monokai`, `vs`… stay highlight.js'). */
const PYGMENTS_ONLY = Object.keys(PYGMENTS_PALETTES).filter((name) => !FILES.has(name));
export const THEME_NAMES: readonly string[] = [...FILES.keys(), ...PYGMENTS_ONLY];

/** Pygments' `friendly`: the default style, and the CSS of a name that is no style. */
const FALLBACK = paletteCss(PYGMENTS_PALETTES.friendly!);
const cache = new Map<string, string>();

/** The CSS of a style, read or generated once and kept. */
export function themeCss(style: string): string {
  let css = cache.get(style);
  if (css === undefined) {
    const file = FILES.get(style);
    const palette = Object.hasOwn(PYGMENTS_PALETTES, style) ? PYGMENTS_PALETTES[style] : undefined;
    css = file
      ? readFileSync(file, 'utf8')
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .trim() + '\n'
      : palette
        ? paletteCss(palette)
        : FALLBACK;
    if (file || palette) cache.set(style, css); // unknown names are not kept: the cache stays bounded by the choices
  }
  return css;
}
