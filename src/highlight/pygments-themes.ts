// Pygments styles as highlight.js themes: each palette of pygments-styles.json (scripts/pygments-palettes.py) as CSS on hljs classes.
import data from './pygments-styles.json';

interface TokenStyle {
  color?: string;
  background?: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
}

export interface Palette {
  background: string;
  color: string;
  tokens: Record<string, TokenStyle>;
}

/** Pygments style name → palette, as generated from the Pygments version recorded in the JSON. */
export const PYGMENTS_PALETTES: Readonly<Record<string, Palette>> = data.styles;
export const PYGMENTS_VERSION: string = data.pygments;

/** highlight.js selectors and the Pygments token whose style they take; later, more specific rules win. */
const CLASS_TOKENS: [selectors: string, token: string][] = [
  ['.hljs-comment, .hljs-quote', 'Comment'],
  ['.hljs-doctag', 'Comment.Special'],
  ['.hljs-meta, .hljs-template-tag, .hljs-meta .hljs-keyword', 'Comment.Preproc'],
  ['.hljs-meta .hljs-string', 'Comment.PreprocFile'],
  ['.hljs-keyword, .hljs-selector-tag, .hljs-bullet', 'Keyword'],
  ['.hljs-literal', 'Keyword.Constant'],
  ['.hljs-type', 'Keyword.Type'],
  ['.hljs-operator', 'Operator'],
  ['.hljs-punctuation', 'Punctuation'],
  ['.hljs-attr, .hljs-attribute, .hljs-selector-attr', 'Name.Attribute'],
  ['.hljs-built_in', 'Name.Builtin'],
  ['.hljs-variable.language_', 'Name.Builtin.Pseudo'],
  ['.hljs-title, .hljs-title.function_', 'Name.Function'],
  ['.hljs-title.class_, .hljs-title.class_.inherited__, .hljs-selector-class', 'Name.Class'],
  ['.hljs-variable.constant_', 'Name.Constant'],
  ['.hljs-selector-pseudo', 'Name.Decorator'],
  ['.hljs-selector-id', 'Name.Namespace'],
  ['.hljs-name', 'Name.Tag'],
  ['.hljs-variable, .hljs-template-variable', 'Name.Variable'],
  ['.hljs-string', 'String'],
  ['.hljs-code', 'String.Backtick'],
  ['.hljs-char.escape_', 'String.Escape'],
  ['.hljs-subst', 'String.Interpol'],
  ['.hljs-regexp', 'String.Regex'],
  ['.hljs-symbol', 'String.Symbol'],
  ['.hljs-number', 'Number'],
  ['.hljs-section', 'Generic.Heading'],
  ['.hljs-deletion', 'Generic.Deleted'],
  ['.hljs-addition', 'Generic.Inserted'],
  ['.hljs-emphasis', 'Generic.Emph'],
  ['.hljs-strong', 'Generic.Strong'],
];

function declarations(s: TokenStyle): string[] {
  const out: string[] = [];
  if (s.color) out.push(`color: ${s.color};`);
  if (s.background) out.push(`background-color: ${s.background};`);
  if (s.bold !== undefined) out.push(`font-weight: ${s.bold ? 'bold' : 'normal'};`);
  if (s.italic !== undefined) out.push(`font-style: ${s.italic ? 'italic' : 'normal'};`);
  if (s.underline) out.push('text-decoration: underline;');
  return out;
}

/** The theme of a palette: `.hljs` background and text colour, then one rule per class group the style colours. */
export function paletteCss(p: Palette): string {
  const rules = [`.hljs { background: ${p.background}; color: ${p.color}; }`];
  for (const [selectors, token] of CLASS_TOKENS) {
    const style = p.tokens[token];
    const decls = style ? declarations(style) : [];
    if (decls.length) rules.push(`${selectors} { ${decls.join(' ')} }`);
  }
  rules.push('.hljs-link { text-decoration: underline; }');
  return rules.join('\n') + '\n';
}
