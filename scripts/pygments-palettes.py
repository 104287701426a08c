#!/usr/bin/env python3
# Writes src/highlight/pygments-styles.json: every Pygments style's background and token colours, read from Pygments itself.
"""Usage: python3 scripts/pygments-palettes.py  (Debian: apt-get install python3-pygments)

Each style becomes {"background", "color", "tokens": {token name: {"color", "background",
"bold", "italic", "underline"}}} with only the attributes the style sets, inheritance already
resolved by Pygments (Keyword.Constant without its own entry carries Keyword's). The mapping of
these tokens onto highlight.js classes lives in src/highlight/pygments-themes.ts.
"""
import json
import os

import pygments
from pygments.styles import get_all_styles, get_style_by_name
from pygments.token import string_to_tokentype

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src', 'highlight', 'pygments-styles.json')

# The tokens src/highlight/pygments-themes.ts maps onto highlight.js classes.
TOKENS = [
    'Comment', 'Comment.Preproc', 'Comment.PreprocFile', 'Comment.Special',
    'Keyword', 'Keyword.Constant', 'Keyword.Type',
    'Operator', 'Punctuation',
    'Name.Attribute', 'Name.Builtin', 'Name.Builtin.Pseudo', 'Name.Class', 'Name.Constant', 'Name.Decorator',
    'Name.Function', 'Name.Namespace', 'Name.Tag', 'Name.Variable',
    'String', 'String.Backtick', 'String.Escape', 'String.Interpol', 'String.Regex', 'String.Symbol',
    'Number',
    'Generic.Heading', 'Generic.Deleted', 'Generic.Inserted', 'Generic.Emph', 'Generic.Strong',
]


def hex_colour(value):
    """'#abc', 'abc', '#AABBCC' -> '#aabbcc'; None/'' -> None."""
    if not value:
        return None
    value = value.lstrip('#').lower()
    if len(value) == 3:
        value = ''.join(c * 2 for c in value)
    return '#' + value


def is_dark(colour):
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 128


def token_style(style, name):
    token = string_to_tokentype(name)
    s = style.style_for_token(token)
    parent = style.style_for_token(token.parent)
    out = {}
    if hex_colour(s['color']):
        out['color'] = hex_colour(s['color'])
    if hex_colour(s['bgcolor']):
        out['background'] = hex_colour(s['bgcolor'])
    for flag in ('bold', 'italic', 'underline'):
        if s[flag]:
            out[flag] = True
        elif parent[flag]:
            out[flag] = False  # `nobold`/`noitalic`: highlight.js nests spans, so the override must be explicit
    return out


def palette(name):
    style = get_style_by_name(name)
    background = hex_colour(style.background_color) or '#ffffff'
    # The default text colour: Text's, else Token's; a style that sets neither leaves the browser's
    # (black), which we make explicit, or white on a dark background so the text stays readable.
    text = style.style_for_token(string_to_tokentype('Text'))['color'] or style.style_for_token(string_to_tokentype('Token'))['color']
    colour = hex_colour(text) or ('#ffffff' if is_dark(background) else '#000000')
    tokens = {t: s for t in TOKENS if (s := token_style(style, t))}
    return {'background': background, 'color': colour, 'tokens': tokens}


def main():
    styles = {name: palette(name) for name in sorted(get_all_styles())}
    # One style per line block, one token per line: readable diffs when Pygments changes.
    lines = ['{',
             f'  "generator": "scripts/pygments-palettes.py",',
             f'  "pygments": {json.dumps(pygments.__version__)},',
             '  "styles": {']
    for i, (name, p) in enumerate(styles.items()):
        tokens = [f'        {json.dumps(t)}: {json.dumps(s)}' for t, s in p['tokens'].items()]
        lines.append(f'    {json.dumps(name)}: {{')
        lines.append(f'      "background": {json.dumps(p["background"])}, "color": {json.dumps(p["color"])},')
        lines.append('      "tokens": {\n' + ',\n'.join(tokens) + '\n      }')
        lines.append('    }' + (',' if i < len(styles) - 1 else ''))
    lines += ['  }', '}', '']
    text = '\n'.join(lines)
    json.loads(text)  # well-formed before it is written
    with open(OUT, 'w', encoding='utf-8') as f:
        f.write(text)
    print(f'{len(styles)} Pygments {pygments.__version__} styles written to {os.path.relpath(OUT)}')


if __name__ == '__main__':
    main()
