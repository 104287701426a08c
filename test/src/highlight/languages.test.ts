// Pygments short names: offered as language choices, resolved to their highlight.js language when rendering.
import { expect } from 'chai';
import hljs from 'highlight.js';
import { LANGUAGE_CHOICES, isLanguage, resolveLanguage } from '../../../src/highlight';
import mapping from '../../../src/highlight/pygments-languages.json';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { testRuntime } from '../../support/runtime';

const PYGMENTS_ONLY = Object.entries(mapping.languages);

describe('Pygments language names', () => {
  it('maps only names highlight.js lacks, each to a highlight.js language', () => {
    expect(PYGMENTS_ONLY.length).to.be.above(50);
    expect(mapping.pygments).to.match(/^\d+\.\d+/);
    for (const [alias, language] of PYGMENTS_ONLY) {
      expect(hljs.getLanguage(alias), alias).to.equal(undefined);
      expect(hljs.listLanguages(), alias).to.include(language);
    }
  });

  it('offers them as choices, sorted, displayed as the language', () => {
    const byValue = new Map(LANGUAGE_CHOICES.map((c) => [c.value, c.display_name]));
    for (const [alias, language] of PYGMENTS_ONLY) {
      expect(isLanguage(alias), alias).to.equal(true);
      expect(byValue.get(alias), alias).to.equal(hljs.getLanguage(language)!.name);
    }
    expect(byValue.get('py3')).to.equal('Python');
    expect(byValue.get('python3')).to.equal('Python');
    expect(isLanguage('no-such-language')).to.equal(false);
  });

  it('resolves a Pygments-only name to its highlight.js language and leaves highlight.js names alone', () => {
    expect(resolveLanguage('py3')).to.equal('python');
    expect(resolveLanguage('python3')).to.equal('python');
    expect(resolveLanguage('shell-session')).to.equal('shell');
    expect(resolveLanguage('python')).to.equal('python');
    expect(resolveLanguage('py')).to.equal('py');
    for (const { value } of LANGUAGE_CHOICES)
      expect(hljs.getLanguage(resolveLanguage(value)), value).not.to.equal(undefined);
  });

  for (const [language, code, expected] of [
    ['py3', 'def f(x):\n    return "s" # c\n', '<span class="hljs-keyword">def</span>'],
    ['python3', 'import os\n', '<span class="hljs-keyword">import</span>'],
    ['html+php', '<p><?php echo "hi"; ?></p>\n', '<span class="hljs-name">p</span>'],
    ['ksh', 'if [ -n "$x" ]; then echo hi; fi\n', '<span class="hljs-keyword">if</span>'],
  ] as const) {
    it(`renders ${language} with highlight.js classes`, async () => {
      const html = await testRuntime().highlighter.render({
        code,
        language,
        style: 'friendly',
        title: '',
        linenos: false,
      });
      expect(html).to.include(expected);
    });
  }

  it('POST /snippets/ accepts a Pygments-only name, stores it as sent and highlights the code', async () => {
    await resetDatabase();
    await makeUser('alice');
    const res = await api()
      .post('/snippets/')
      .set('Authorization', basic('alice'))
      .send({ code: 'def f():\n    pass\n', language: 'py3', style: 'native' })
      .expect(201);
    expect(res.body.language).to.equal('py3');
    expect(res.body.style).to.equal('native');
    const page = await api().get(`/snippets/${res.body.id}/highlight/`).expect(200);
    expect(page.text).to.include('<span class="hljs-keyword">def</span>').and.include('.hljs { background: #202020;');
  });
});
