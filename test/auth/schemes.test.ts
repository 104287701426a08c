// The chain's refusals under several AUTH_SCHEMES orders: 401 with the first scheme's challenge, or 403.
import { expect } from 'chai';
import { setPassword } from '../../src/auth/users';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';
import { testStore } from '../support/runtime';

/** AUTH_SCHEMES order → the challenge an unauthenticated refusal carries (none: 403). */
const ORDERS: [string, string | undefined][] = [
  ['basic,session,token,oauth2', 'Basic realm="api"'],
  ['token,basic', 'Token'],
  ['oauth2,basic,token', 'Bearer realm="api"'],
  ['session,basic,token', undefined],
];

describe('AUTH_SCHEMES orders', () => {
  let aliceSnippet: number;
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    await makeUser('bob');
    aliceSnippet = (
      await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'mine' }).expect(201)
    ).body.id;
  });

  for (const [order, challenge] of ORDERS) {
    const status = challenge ? 401 : 403;
    describe(`AUTH_SCHEMES=${order}`, () => {
      it(`an anonymous POST /snippets/ responds ${status}${challenge ? ` with WWW-Authenticate: ${challenge}` : ' without WWW-Authenticate'}`, async () => {
        const res = await api({ AUTH_SCHEMES: order }).post('/snippets/').send({ code: 'x' }).expect(status);
        expect(res.body).to.deep.equal({ detail: 'Authentication credentials were not provided.' });
        expect(res.headers['www-authenticate']).to.equal(challenge);
      });

      it(`wrong Basic credentials on GET and on POST respond ${status}, nothing stored`, async () => {
        for (const method of ['get', 'post'] as const) {
          const res = await api({ AUTH_SCHEMES: order })
            [method]('/snippets/')
            .set('Authorization', basic('alice', 'wrong'))
            .send({ code: 'x' })
            .expect(status);
          expect(res.body).to.deep.equal({ detail: 'Invalid username/password.' });
          expect(res.headers['www-authenticate']).to.equal(challenge);
        }
        expect((await api().get('/snippets/').expect(200)).body).to.have.length(1);
      });

      it('a non-owner PUT and DELETE respond 403 without WWW-Authenticate', async () => {
        for (const method of ['put', 'delete'] as const) {
          const res = await api({ AUTH_SCHEMES: order })
            [method](`/snippets/${aliceSnippet}/`)
            .set('Authorization', basic('bob'))
            .send({ code: 'theirs' })
            .expect(403);
          expect(res.body).to.deep.equal({ detail: 'You do not have permission to perform this action.' });
          expect(res.headers).not.to.have.property('www-authenticate');
        }
        expect((await api().get(`/snippets/${aliceSnippet}/`).expect(200)).body.code).to.equal('mine');
      });

      it('wrong credentials stop /trpc and the HTML pages too', async () => {
        const trpc = await api({ AUTH_SCHEMES: order })
          .get('/trpc/snippets.list')
          .set('Authorization', basic('alice', 'wrong'))
          .expect(status);
        expect(trpc.body.error.data.httpStatus).to.equal(status);
        await api({ AUTH_SCHEMES: order })
          .get('/snippets/')
          .set('Accept', 'text/html')
          .set('Authorization', basic('alice', 'wrong'))
          .expect(status);
      });
    });
  }

  it('a scheme left out of AUTH_SCHEMES is not attempted: its header is anonymous', async () => {
    await api({ AUTH_SCHEMES: 'basic' }).get('/snippets/').set('Authorization', 'Token whatever').expect(200);
    await api({ AUTH_SCHEMES: 'basic' })
      .post('/snippets/')
      .set('Authorization', 'Token whatever')
      .send({ code: 'x' })
      .expect(401);
  });

  it("Basic: the password is everything after the first colon, colons and all (passport-http's split would cut it)", async () => {
    await makeUser('carol', 'pass:with:colons');
    const res = await api().get('/users/').set('Authorization', basic('carol', 'pass:with:colons')).expect(200);
    expect(res.body.map((u: { username: string }) => u.username)).to.include('carol');
    await api().get('/users/').set('Authorization', basic('carol', 'pass')).expect(401);
  });

  it('Basic with a pair accepted moments ago: a password change refuses the old one at once and accepts the new', async () => {
    await api().get('/users/').set('Authorization', basic('alice')).expect(200);
    await api().get('/users/').set('Authorization', basic('alice')).expect(200);
    await setPassword(testStore(), 'alice', 'newpass', 1000);
    const res = await api().get('/users/').set('Authorization', basic('alice')).expect(401);
    expect(res.body).to.deep.equal({ detail: 'Invalid username/password.' });
    await api().post('/snippets/').set('Authorization', basic('alice', 'newpass')).send({ code: 'x' }).expect(201);
  });
});
