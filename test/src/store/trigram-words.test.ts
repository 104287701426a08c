// The words of MySQL/MariaDB's search index (src/store/mysql/trigram-words.ts) are stored: a row indexed by one release
// is looked up by the next, so a faster way of working them out must give every word as before, in the same order.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { trigramWords } from '../../../src/store/mysql/trigram-words';

const FIXTURES = path.join(__dirname, '../../../bench/fixtures');

describe('the search index words of a text (MySQL/MariaDB)', () => {
  it('are those of the release that built the index: one text spelled out', () => {
    expect(trigramWords(['héllo wörld 🎉🎉 print("x")'], 3)).to.deep.equal([
      'u1q',
      'ew8',
      '1kr',
      'uca',
      'qax',
      'j9v',
      'ifr',
      'dyt',
      'zt8',
      'njo',
      'w81',
      'xmb',
      'y9l',
      'lcm',
    ]);
  });

  it('are those of the release that built the index: every fixture, at three widths, with and without common trigrams', () => {
    const texts = readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.txt'))
      .map((f) => readFileSync(path.join(FIXTURES, f), 'utf8').toLowerCase());
    texts.push('héllo wörld 🎉🎉 print("x") жук ǅ\u0130stanbul', 'ab', '');
    const rows: string[] = [];
    for (const width of [3, 4, 6])
      for (const common of [false, true])
        for (const text of texts) rows.push(trigramWords(['a title', text], width, common).join(' '));
    // The digest of the same rows from the words as ad66692 worked them out (a Set of every trigram's hash).
    expect(createHash('sha256').update(rows.join('\n')).digest('hex')).to.equal(
      '394d5892a10e60bde560be48009ac2d865cecc281b5754ad5781a7c827ef3435',
    );
  });
});
