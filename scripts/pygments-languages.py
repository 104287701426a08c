#!/usr/bin/env python3
# Writes src/highlight/pygments-languages.json: Pygments short names that highlight.js has under another name → that language.
"""Usage: python3 scripts/pygments-languages.py  (needs python3-pygments, and node with ./node_modules installed)

A Pygments lexer is matched to a highlight.js language when
  - one of its short names is that language's name or alias (e.g. Python's `py`), or
  - its normalised name is that language's normalised display name (WebAssembly), or
  - it is in EXTRA, pairs checked by hand where both sides name the same language,
and is not in DENIED (a shared short name that means another language on the other side).
Every short name of a matched lexer that highlight.js does not know is then mapped to it
(`python3`, `py3`, `pyi` → python), except DENIED_ALIASES. Only Pygments' own lexers count, not plugins, so the output
does not depend on what else is installed. The script prints the coverage of Pygments' short names.
"""
import json
import os
import re
import subprocess

import pygments
from pygments.lexers import get_all_lexers

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
OUT = os.path.join(ROOT, 'src', 'highlight', 'pygments-languages.json')

# Lexers whose short name collides with a different highlight.js language.
DENIED = {
    'ASCII armored',       # `asc` is AngelScript in highlight.js
    'MOOCode',             # `moo` is Mercury in highlight.js
    'K',                   # `k` is Q (kdb+) in highlight.js; K is its own language
    'QBasic',              # `basic` is the Tandy 1000 BASIC in highlight.js, not QBasic
    'Erlang erl session',  # `erl` is Erlang source in highlight.js, a shell session in Pygments
    'Java Server Page',    # `jsp` is a Java alias in highlight.js; JSP is HTML with Java
}

# Short names of a matched lexer that name another language Pygments merely lexes the same way.
DENIED_ALIASES = {
    'duby',                    # Mirah, Ruby-like (Ruby lexer)
    'lobas', 'oobas', 'sobas', # LibreOffice/OpenOffice/StarOffice Basic (VB.net lexer)
    'hxsl',                    # Haxe shader language (Haxe lexer)
}

# Lexers without a shared short name that are the same language as a highlight.js grammar.
EXTRA = {
    'ActionScript 3': 'actionscript',      # highlight.js' ActionScript is AS3
    'Python 2.x': 'python',
    'Roboconf Graph': 'roboconf',           # highlight.js' Roboconf covers graph and instances files
    'Roboconf Instances': 'roboconf',
    'XSLT': 'xml',                          # XML; highlight.js lists `xsl` under xml
    'HTML+Handlebars': 'handlebars',        # highlight.js' Handlebars is HTML with Handlebars
    'HTML+Twig': 'twig',                    # likewise HTML with Twig
    'HTML+Django/Jinja': 'django',          # likewise HTML with Django/Jinja
    'RHTML': 'erb',                         # likewise HTML with ERB
    'HTML+PHP': 'php-template',             # highlight.js' PHP template is HTML with <?php … ?>
    'ClojureScript': 'clojure',             # Clojure's syntax; Pygments lexes it with its Clojure lexer
    'Base Makefile': 'makefile',
    'JSON-LD': 'json',                      # JSON; Pygments' lexer is its JSON lexer
    'PL/pgSQL': 'pgsql',                    # highlight.js' pgsql is "PostgreSQL and PL/pgSQL"
    'Text output': 'plaintext',
}

HLJS_LIST = """
const hljs = require('highlight.js');
const out = {};
for (const n of hljs.listLanguages()) { const l = hljs.getLanguage(n); out[n] = { name: l.name || n, aliases: l.aliases || [] }; }
console.log(JSON.stringify({ version: hljs.versionString, languages: out }));
"""


def norm(s):
    return re.sub(r'[^a-z0-9+#]', '', s.lower())


def main():
    hl = json.loads(subprocess.run(['node', '-e', HLJS_LIST], cwd=ROOT, check=True, capture_output=True, text=True).stdout)
    languages = hl['languages']
    known = {}  # highlight.js name or alias → language name
    for name, lang in languages.items():
        known[name] = name
        for alias in lang['aliases']:
            known.setdefault(alias, name)
    by_display = {norm(lang['name']): name for name, lang in languages.items()}

    lexers = list(get_all_lexers(plugins=False))
    names = {lexer[0] for lexer in lexers}
    for missing in (DENIED | set(EXTRA)) - names:
        print(f'warning: no Pygments lexer named {missing!r}')

    mapping = {}
    for lexer_name, aliases, _files, _mimes in lexers:
        if lexer_name in DENIED:
            continue
        targets = [known[a] for a in aliases if a in known]
        if lexer_name in EXTRA:
            target = EXTRA[lexer_name]
        elif norm(lexer_name) in by_display:
            target = by_display[norm(lexer_name)]
        elif targets:
            # Bash's `bash` is highlight.js' bash and its `shell` highlight.js' shell session: the lexer's name decides.
            same_name = [t for t in targets if norm(t) == norm(lexer_name)]
            target = same_name[0] if same_name else targets[0]
        else:
            continue
        for alias in aliases:
            if alias not in known and alias not in DENIED_ALIASES:
                mapping.setdefault(alias, target)

    all_aliases = {a for lexer in lexers for a in lexer[1]}
    direct = sorted(a for a in all_aliases if a in known)
    covered = len(direct) + len(mapping)
    coverage = f'{covered} of {len(all_aliases)} Pygments short names ({len(direct)} as highlight.js names or aliases, {len(mapping)} through this mapping)'
    doc = {
        'generator': 'scripts/pygments-languages.py',
        'pygments': pygments.__version__,
        'highlightjs': hl['version'],
        'coverage': coverage,
        'languages': dict(sorted(mapping.items())),
    }
    with open(OUT, 'w', encoding='utf-8') as f:
        json.dump(doc, f, indent=2)
        f.write('\n')
    print(f'Pygments {pygments.__version__}, highlight.js {hl["version"]}: covered {coverage}')
    print(f'written to {os.path.relpath(OUT)}')


if __name__ == '__main__':
    main()
