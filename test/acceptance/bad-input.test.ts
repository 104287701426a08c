// POST /snippets/ with bad input: a clear 4xx JSON answer, never a 500, and nothing stored.
import { expect } from 'chai';
import { resetDatabase, makeUser } from '../support/db';
import { api, basic } from '../support/http';

async function expectNothingStored(): Promise<void> {
  expect((await api().get('/snippets/').expect(200)).body).to.deep.equal([]);
}

function post() {
  return api().post('/snippets/').set('Authorization', basic('alice'));
}

describe('POST /snippets/ with bad input', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });
  afterEach(expectNothingStored);

  it('malformed JSON responds 400 with a "JSON parse error" detail', async () => {
    const res = await post().type('json').send('{"code": "x",').expect(400);
    expect(res.body.detail).to.match(/^JSON parse error - /);
  });

  for (const [body, type] of [
    ['[1,2]', 'list'],
    ['"text"', 'str'],
    ['42', 'int'],
    ['1.5', 'float'],
    ['true', 'bool'],
    ['null', 'NoneType'],
  ]) {
    it(`a JSON ${type} instead of an object responds 400 non_field_errors`, async () => {
      const res = await post().type('json').send(body).expect(400);
      expect(res.body).to.deep.equal({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${type}.`] });
    });
  }

  it('invalid UTF-8 in a JSON body responds 400', async () => {
    const raw = Buffer.concat([Buffer.from('{"code":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const res = await post()
      .set('Content-Type', 'application/json')
      .serialize(((b: Buffer) => b) as unknown as (obj: unknown) => string)
      .send(raw)
      .expect(400);
    expect(res.body.detail).to.match(/UTF-8/);
  });

  it('a lone surrogate escape responds 400 on the field', async () => {
    const res = await post().type('json').send('{"code":"\\ud800"}').expect(400);
    expect(res.body).to.deep.equal({ code: ['Not a valid string.'] });
  });

  it('a NUL character responds 400 on the field', async () => {
    const res = await post().send({ code: 'a\u0000b' }).expect(400);
    expect(res.body).to.deep.equal({ code: ['Null characters are not allowed.'] });
  });

  it('an unsupported content type responds 415 with detail', async () => {
    const res = await post().set('Content-Type', 'text/plain').send('print(1)').expect(415);
    expect(res.body).to.deep.equal({ detail: 'Unsupported media type "text/plain" in request.' });
  });

  it('a missing code responds 400 "This field is required."', async () => {
    const res = await post().send({ title: 't' }).expect(400);
    expect(res.body).to.deep.equal({ code: ['This field is required.'] });
  });

  it('an empty body responds 400 "This field is required."', async () => {
    const res = await post().expect(400);
    expect(res.body).to.deep.equal({ code: ['This field is required.'] });
  });

  for (const code of ['', '   \n']) {
    it(`a blank code (${JSON.stringify(code)}) responds 400 "This field may not be blank."`, async () => {
      const res = await post().send({ code }).expect(400);
      expect(res.body).to.deep.equal({ code: ['This field may not be blank.'] });
    });
  }

  it('too long, bad boolean and bad choices respond 400 with one message per field', async () => {
    const res = await post()
      .send({ title: 'a'.repeat(101), code: 'x', linenos: 'maybe', language: 'nope', style: 'nope' })
      .expect(400);
    expect(res.body).to.deep.equal({
      title: ['Ensure this field has no more than 100 characters.'],
      linenos: ['Must be a valid boolean.'],
      language: ['"nope" is not a valid choice.'],
      style: ['"nope" is not a valid choice.'],
    });
  });

  it('100,001 characters of code respond 400', async () => {
    const res = await post()
      .send({ code: 'a'.repeat(100001) })
      .expect(400);
    expect(res.body).to.deep.equal({ code: ['Ensure this field has no more than 100000 characters.'] });
  });

  it('100,001 emoji respond 400 as well', async () => {
    const res = await post()
      .send({ code: '😀'.repeat(100001) })
      .expect(400);
    expect(res.body).to.deep.equal({ code: ['Ensure this field has no more than 100000 characters.'] });
  });

  it('101 emoji in the title respond 400', async () => {
    const res = await post()
      .send({ code: 'x', title: '😀'.repeat(101) })
      .expect(400);
    expect(res.body).to.have.property('title');
  });

  for (const [field, value, message] of [
    ['code', 42, 'Not a valid string.'],
    ['code', ['x'], 'Not a valid string.'],
    ['code', null, 'This field may not be null.'],
    ['title', { a: 1 }, 'Not a valid string.'],
    ['linenos', 'yes please', 'Must be a valid boolean.'],
    ['linenos', 2, 'Must be a valid boolean.'],
    ['language', 5, '"5" is not a valid choice.'],
  ] as const) {
    it(`${field}: ${JSON.stringify(value)} (wrong type) responds 400 "${message}"`, async () => {
      const res = await post()
        .send({ code: 'x', [field]: value })
        .expect(400);
      expect(res.body).to.deep.equal({ [field]: [message] });
    });
  }

  it('a body over the size limit responds 413 with detail', async () => {
    const res = await post()
      .send({ code: 'a'.repeat(2 * 1024 * 1024) })
      .expect(413);
    expect(res.body).to.have.property('detail').that.is.a('string');
  });

  it('a multipart body without its boundary responds 400', async () => {
    const res = await post().set('Content-Type', 'multipart/form-data').send('garbage').expect(400);
    expect(res.body.detail).to.be.a('string');
  });
});
