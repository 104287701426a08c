// Which lane a diff takes: the lines between two codes' common first and last lines.
import { expect } from 'chai';
import { changedLines, QUICK_CHANGED_LINES } from '../../../src/highlight/differ';

describe('changedLines', () => {
  const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i}\n`).join('');

  it('is 0 for equal codes, and counts the changed line of each side for a one-line change in a long code', () => {
    expect(changedLines(lines(50_000), lines(50_000))).to.equal(0);
    const changed = lines(50_000).replace('line 25000\n', 'changed\n');
    expect(changedLines(lines(50_000), changed)).to.equal(2);
  });

  it('counts a change within a line from the start of that line, and lines added or removed at either end', () => {
    expect(changedLines('abc\ndef\n', 'abc\ndxf\n')).to.equal(2);
    expect(changedLines('\na\n', 'x\na\n')).to.equal(2);
    expect(changedLines(lines(10), lines(10) + 'more\n')).to.equal(1);
    expect(changedLines('first\n' + lines(10), lines(10))).to.equal(1);
    expect(changedLines('', 'a\nb\n')).to.equal(2);
  });

  it('puts two long codes with nothing in common far past the quick lane', () => {
    expect(changedLines('a\n'.repeat(50_000), 'b\n'.repeat(50_000))).to.equal(100_000);
    expect(changedLines('a\n'.repeat(50_000), 'b\n'.repeat(50_000))).to.be.above(QUICK_CHANGED_LINES);
  });
});
