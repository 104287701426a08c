// code (and title) as a file part of a multipart body, as `curl -F code=@main.rs` sends it: stored byte for byte.
import { expect } from 'chai';
import { resetDatabase, makeUser } from '../support/db';
import { api, basic } from '../support/http';
import { BODY_LIMIT, MULTIPART_LIMITS } from '../../server/http/body';

const TEXT = 'fn main() {\r\n\tprintln!("héllo 😀");\r\n}\n\n';

describe('code as a file part (multipart/form-data)', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  const post = () => api().post('/snippets/').set('Authorization', basic('alice'));

  it('POST stores the file text exactly: CRLF, tabs, trailing newlines, non-ASCII and emoji, a byte-order mark', async () => {
    const withBom = `\ufeff${TEXT}`;
    const res = await post()
      .attach('code', Buffer.from(withBom, 'utf8'), 'main.rs')
      .field('language', 'rust')
      .expect(201);
    expect(res.body).to.include({ code: withBom, language: 'rust', title: '', owner: 'alice' });
    const got = await api().get(`/snippets/${res.body.id}/`).expect(200);
    expect(Buffer.from(got.body.code, 'utf8').equals(Buffer.from(withBom, 'utf8'))).to.equal(true);
  });

  it('takes title as a file part too, and a file part of another name is ignored', async () => {
    const res = await post()
      .attach('title', Buffer.from('from a file'), 'title.txt')
      .attach('code', Buffer.from('x = 1\n'), 'x.py')
      .attach('language', Buffer.from('rust'), 'language.txt')
      .expect(201);
    expect(res.body).to.include({ title: 'from a file', code: 'x = 1\n', language: 'python' });
  });

  it('PUT replaces the code with a file part', async () => {
    const created = await post().send({ code: 'old' }).expect(201);
    const res = await api()
      .put(`/snippets/${created.body.id}/`)
      .set('Authorization', basic('alice'))
      .attach('code', Buffer.from(TEXT), 'main.rs')
      .field('language', 'rust')
      .expect(200);
    expect(res.body).to.include({ code: TEXT, language: 'rust' });
  });

  it('a file that is not UTF-8 is a 400 naming the field', async () => {
    const latin1 = Buffer.from('caf\xe9\n', 'latin1');
    const res = await post().attach('code', latin1, 'latin1.txt').expect(400);
    expect(res.body).to.deep.equal({ code: ['The submitted file is not UTF-8 text.'] });
  });

  it('an empty file is a blank code, as an empty field is', async () => {
    const res = await post().attach('code', Buffer.alloc(0), 'empty.rs').expect(400);
    expect(res.body).to.deep.equal({ code: ['This field may not be blank.'] });
  });

  it('a body over the limit is 413, a file of more than 100,000 characters a 400', async () => {
    const huge = await post().attach('code', Buffer.alloc(BODY_LIMIT + 1, 'a'), 'huge.txt');
    expect(huge.status).to.equal(413);
    expect(huge.body).to.have.property('detail').that.is.a('string');
    const long = await post().attach('code', Buffer.alloc(100_001, 'a'), 'long.txt').expect(400);
    expect(long.body).to.have.property('code');
  });

  /** A multipart body of `parts` (each its Content-Disposition parameters and content), for parts superagent cannot make. */
  const multipart = (parts: [string, string][]) => {
    const boundary = 'b0undary';
    const body = parts
      .map(
        ([disposition, content]) =>
          `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n${content}\r\n`,
      )
      .join('');
    return post().set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(`${body}--${boundary}--\r\n`);
  };
  const files = (n: number, disposition: (i: number) => string) =>
    Array.from({ length: n }, (_, i): [string, string] => [disposition(i), `ignored ${i}`]);

  it('finds code after ten file parts without a name, or of names it ignores', async () => {
    const unnamed = await multipart([
      ...files(10, (i) => `filename="x${i}.txt"`),
      ['name="code"; filename="main.rs"', 'fn main() {}'],
    ]).expect(201);
    expect(unnamed.body.code).to.equal('fn main() {}');
    const ignored = await multipart([
      ...files(50, (i) => `name="other${i}"; filename="x${i}.txt"`),
      ['name="code"; filename="main.rs"', 'x'],
    ]).expect(201);
    expect(ignored.body.code).to.equal('x');
  });

  it('more file parts or fields than it reads is a 400 that says so, not a missing field', async () => {
    const tooManyFiles = await multipart([
      ...files(MULTIPART_LIMITS.files + 1, (i) => `filename="x${i}.txt"`),
      ['name="code"', 'x'],
    ]).expect(400);
    expect(tooManyFiles.body).to.deep.equal({
      detail: `Multipart form parse error - More than ${MULTIPART_LIMITS.files} file parts.`,
    });
    const tooManyFields = await multipart([
      ...files(MULTIPART_LIMITS.fields + 1, (i) => `name="f${i}"`),
      ['name="code"', 'x'],
    ]).expect(400);
    expect(tooManyFields.body).to.deep.equal({
      detail: `Multipart form parse error - More than ${MULTIPART_LIMITS.fields} fields.`,
    });
  });

  it('the last of a field and a file part of one name wins, in the order they came', async () => {
    const res = await post().field('code', 'field').attach('code', Buffer.from('file'), 'f.txt').expect(201);
    expect(res.body.code).to.equal('file');
    const other = await post().attach('code', Buffer.from('file'), 'f.txt').field('code', 'field').expect(201);
    expect(other.body.code).to.equal('field');
  });
});
