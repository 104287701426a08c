// Pygments styles as themes: their exact colours on hljs classes, highlight.js keeping shared names, CSS for every choice.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { STYLE_CHOICES, isStyle } from '../../../src/highlight';
import { PYGMENTS_PALETTES, PYGMENTS_VERSION, paletteCss } from '../../../src/highlight/pygments-themes';
import { themeCss } from '../../../src/highlight/themes';

/** selector → its declarations (`color: #fff; font-weight: bold;`), over every rule of a sheet. */
function rules(css: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [, selectors, body] of css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/([^{}]+)\{([^}]*)\}/g)) {
    for (const selector of selectors!.split(','))
      out.set(selector.trim(), ((out.get(selector.trim()) ?? '') + ' ' + body!.trim()).trim());
  }
  return out;
}

const HLJS_STYLES = path.join(path.dirname(require.resolve('highlight.js/package.json')), 'styles');

/** Pygments' own definitions (pygments/styles/*.py), not read from our JSON. */
const KNOWN = {
  friendly: {
    bg: '#f0f0f0',
    comment: 'color: #60a0b0; font-style: italic;',
    keyword: 'color: #007020; font-weight: bold;',
    string: 'color: #4070a0;',
    number: 'color: #40a070;',
  },
  'solarized-dark': {
    bg: '#002b36',
    comment: 'color: #586e75; font-style: italic;',
    keyword: 'color: #859900;',
    string: 'color: #2aa198;',
    number: 'color: #2aa198;',
  },
  emacs: {
    bg: '#f8f8f8',
    comment: 'color: #008800; font-style: italic;',
    keyword: 'color: #aa22ff; font-weight: bold;',
    string: 'color: #bb4444;',
    number: 'color: #666666;',
  },
  vim: {
    bg: '#000000',
    comment: 'color: #000080;',
    keyword: 'color: #cdcd00;',
    string: 'color: #cd0000;',
    number: 'color: #cd00cd;',
  },
  colorful: {
    bg: '#ffffff',
    comment: 'color: #888888;',
    keyword: 'color: #008800; font-weight: bold;',
    string: 'background-color: #fff0f0;',
    number: 'color: #6600ee; font-weight: bold;',
  },
  native: {
    bg: '#202020',
    comment: 'color: #ababab; font-style: italic;',
    keyword: 'color: #6ebf26; font-weight: bold;',
    string: 'color: #ed9d13;',
    number: 'color: #51b2fd;',
  },
  tango: {
    bg: '#f8f8f8',
    comment: 'color: #8f5902; font-style: italic;',
    keyword: 'color: #204a87; font-weight: bold;',
    string: 'color: #4e9a06;',
    number: 'color: #0000cf; font-weight: bold;',
  },
};

function expectPalette(css: string, name: string, k: (typeof KNOWN)['friendly']): void {
  const r = rules(css);
  expect(r.get('.hljs'), `${name} .hljs`).to.include(`background: ${k.bg};`);
  expect(r.get('.hljs-comment'), `${name} comment`).to.equal(k.comment);
  expect(r.get('.hljs-quote'), `${name} quote`).to.equal(k.comment);
  expect(r.get('.hljs-keyword'), `${name} keyword`).to.equal(k.keyword);
  expect(r.get('.hljs-selector-tag'), `${name} selector-tag`).to.equal(k.keyword);
  expect(r.get('.hljs-string'), `${name} string`).to.equal(k.string);
  expect(r.get('.hljs-number'), `${name} number`).to.equal(k.number);
}

describe('Pygments styles', () => {
  it('records the Pygments version that generated the palettes', () => {
    expect(PYGMENTS_VERSION).to.match(/^\d+\.\d+/);
    expect(Object.keys(PYGMENTS_PALETTES)).to.include.members([
      'friendly',
      'monokai',
      'solarized-dark',
      'emacs',
      'vim',
      'colorful',
      'native',
    ]);
  });

  for (const [name, known] of Object.entries(KNOWN)) {
    it(`${name} has Pygments' background, comment, keyword, string and number`, () => {
      expect(isStyle(name)).to.equal(true);
      expectPalette(themeCss(name), name, known);
    });
  }

  it('friendly keeps its other colours: builtins, names, classes, Pygments overrides such as Keyword.Type nobold', () => {
    const r = rules(themeCss('friendly'));
    expect(r.get('.hljs')).to.equal('background: #f0f0f0; color: #000000;');
    expect(r.get('.hljs-built_in')).to.equal('color: #007020;');
    expect(r.get('.hljs-title.function_')).to.equal('color: #06287e;');
    expect(r.get('.hljs-title.class_')).to.equal('color: #0e84b5; font-weight: bold;');
    expect(r.get('.hljs-type')).to.equal('color: #902000; font-weight: normal;');
    expect(r.get('.hljs-meta')).to.equal('color: #007020; font-style: normal;');
  });

  it('keeps highlight.js themes where both have the name (monokai, default), Pygments colours on the palette', () => {
    for (const name of ['monokai', 'default', 'vs', 'xcode']) {
      expect(themeCss(name), name).to.equal(
        readFileSync(path.join(HLJS_STYLES, `${name}.css`), 'utf8')
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .trim() + '\n',
      );
    }
    expectPalette(paletteCss(PYGMENTS_PALETTES.monokai!), 'monokai (Pygments)', {
      bg: '#272822',
      comment: 'color: #959077;',
      keyword: 'color: #66d9ef;',
      string: 'color: #e6db74;',
      number: 'color: #ae81ff;',
    });
  });

  it('offers every Pygments style, each Pygments-only one with its palette from the JSON', () => {
    const values = new Set(STYLE_CHOICES.map((c) => c.value));
    for (const [name, p] of Object.entries(PYGMENTS_PALETTES)) {
      expect(values.has(name), name).to.equal(true);
      if (themeCss(name) !== paletteCss(p)) continue; // a highlight.js theme of the same name
      const r = rules(themeCss(name));
      expect(r.get('.hljs'), name).to.equal(`background: ${p.background}; color: ${p.color};`);
      for (const [selector, token] of [
        ['.hljs-comment', 'Comment'],
        ['.hljs-keyword', 'Keyword'],
        ['.hljs-string', 'String'],
        ['.hljs-number', 'Number'],
      ] as const) {
        const t = p.tokens[token] ?? {};
        if (t.color) expect(r.get(selector), `${name} ${selector}`).to.include(`color: ${t.color};`);
        if (t.bold) expect(r.get(selector), `${name} ${selector}`).to.include('font-weight: bold;');
        if (t.italic) expect(r.get(selector), `${name} ${selector}`).to.include('font-style: italic;');
      }
    }
  });

  it('gives every style choice non-empty CSS with a .hljs rule', () => {
    expect(STYLE_CHOICES.length).to.be.above(250);
    for (const { value } of STYLE_CHOICES) {
      const css = themeCss(value);
      expect(css.trim(), value).not.to.equal('');
      expect(rules(css).has('.hljs'), value).to.equal(true);
    }
  });

  it("falls back to friendly's CSS for a name that is no style", () => {
    expect(isStyle('no-such-style')).to.equal(false);
    expect(themeCss('no-such-style')).to.equal(themeCss('friendly'));
  });
});
