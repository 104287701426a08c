// The log on a terminal (pino-pretty): one line per request, its fields after its message.
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pretty from 'pino-pretty';
import supertest from 'supertest';
import { createApp } from '../../server/app';
import { createLogger, PRETTY_OPTIONS } from '../../src/log';
import { runtimeWith } from '../support/runtime';
import { makeUser, resetDatabase } from '../support/db';
import { basic } from '../support/http';

describe('pretty log output', () => {
  before(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it('an access record is one line: the message, then the request id, bytes, ms and user', async () => {
    let text = '';
    const destination = new Writable({
      write: (chunk: Buffer, _encoding, done) => ((text += chunk.toString()), done()),
    });
    const stream = pretty({ ...PRETTY_OPTIONS, colorize: false, destination });
    const app = createApp({ ...runtimeWith(), log: createLogger('info', stream) });
    const res = await supertest(app).get('/snippets/').set('Authorization', basic('alice')).expect(200);
    // pino-pretty hands lines on through a stream: wait for the line of this request to come out.
    const id = res.headers['x-request-id'] as string;
    for (let i = 0; i < 100 && !text.includes(id); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const lines = text.split('\n').filter((l) => l.includes(id));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(
      / INFO.*: GET \/snippets\/ 200 \{.*"reqId":"[0-9a-f-]{36}".*"bytes":\d+.*"ms":\d+.*"userId":\d+/,
    );
    expect(text.trimEnd().split('\n')).to.have.length(1);
  });
});
