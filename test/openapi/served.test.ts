// The document against the served app: each documented operation, called as documented, answers its documented success status.
import { expect } from 'chai';
import type { OpenAPIObject, SchemaObject } from 'openapi3-ts/oas31';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';
import { appRouter } from '../../src/routers';
import { routesOf } from '../../server/rest/routes';
import { fetchDocument, operation, response, statuses, type HttpMethod } from './support';

const ROUTES = routesOf(appRouter);

describe('/openapi.json as served by createApp()', () => {
  let doc: OpenAPIObject;
  let snippetId: number;
  let userId: number;
  let tokenId: number;
  before(async () => {
    doc = await fetchDocument();
  });
  beforeEach(async () => {
    await resetDatabase();
    userId = (await makeUser('alice')).id;
    snippetId = (
      await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'x = 1' }).expect(201)
    ).body.id;
    tokenId = (
      await api()
        .post('/tokens/')
        .set('Authorization', basic('alice'))
        .send({ name: 'doc', scopes: 'read' })
        .expect(201)
    ).body.id;
  });

  it('every documented operation of the routing table answers its documented success status', async () => {
    // Deletes last: the paths below a snippet need it.
    for (const method of ['get', 'post', 'put', 'delete'] as HttpMethod[]) {
      for (const [path, item] of Object.entries(doc.paths ?? {})) {
        if (!ROUTES.some((r) => r.pattern.test(path.replace('{id}', '42').replace('{n}', '1')))) continue; // the others: coverage.test.ts
        const op = item[method];
        if (!op) continue;
        const id = path.startsWith('/users/') ? userId : path.startsWith('/tokens/') ? tokenId : snippetId;
        const url = path.replace('{id}', String(id)).replace('{n}', '1');
        let req = api()[method](url).set('Authorization', basic('alice'));
        const body = path.startsWith('/tokens/')
          ? { name: 'ci', scopes: ['write'] }
          : { code: 'print(1)', linenos: true };
        if (op.requestBody) req = req.send(body);
        const success = Number(statuses(op).find((s) => s.startsWith('2')));
        const res = await req;
        expect(res.status, `${method.toUpperCase()} ${url}`).to.equal(success);
        if (success === 204) expect(res.headers['content-type'], 'a 204 has no Content-Type').to.equal(undefined);
      }
    }
  });

  it('answers a POST without credentials as the documented 401: WWW-Authenticate and `detail`', async () => {
    const res = await api().post('/snippets/').send({ code: 'x' }).expect(401);
    expect(res.headers['www-authenticate']).to.be.a('string');
    const documented = response(doc, operation(doc, '/snippets/', 'post'), 401);
    expect(Object.keys(documented.headers ?? {})).to.include('WWW-Authenticate');
    expect(Object.keys(res.body)).to.deep.equal(['detail']);
  });

  it('answers invalid input with the documented validation shape, form bodies included', async () => {
    const res = await api()
      .post('/snippets/')
      .set('Authorization', basic('alice'))
      .type('form')
      .send({ title: 'no code' })
      .expect(400);
    const map = doc.components?.schemas?.ValidationError as SchemaObject;
    expect(map.additionalProperties).to.deep.equal({ type: 'array', items: { type: 'string' } });
    for (const messages of Object.values(res.body))
      expect(messages)
        .to.be.an('array')
        .that.satisfies((m: unknown[]) => m.every((s) => typeof s === 'string'));
    expect(res.body).to.have.property('code');
  });

  it('answers a bad ?limit= with 400 and an unknown ?cursor= with 404, as documented on the list', async () => {
    const list = operation(doc, '/snippets/', 'get');
    expect(list.responses).to.include.keys('400', '404');
    await api().get('/snippets/?limit=abc').expect(400);
    await api().get('/snippets/?limit=1&cursor=nonsense').expect(404);
  });
});
