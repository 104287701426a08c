// Session login and logout under api-auth/, and CSRF on session writes.
import { expect } from 'chai';
import supertest from 'supertest';
import { makeUser, resetDatabase } from '../support/db';
import { app, login } from '../support/http';
import { csrfFrom } from '../support/pages';
import { readsDuring } from '../support/engine';
import { testStore } from '../support/runtime';

function cookieOf(res: supertest.Response, name: string): string | undefined {
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  return cookies.find((c) => c.startsWith(`${name}=`));
}

describe('session authentication', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  describe('GET /api-auth/login/', () => {
    it('answers the login form with username, password, the CSRF token and next', async () => {
      const res = await supertest(app()).get('/api-auth/login/?next=/snippets/').expect(200);
      expect(res.headers['content-type']).to.match(/^text\/html/);
      expect(res.text)
        .to.include('name="username"')
        .and.include('name="password"')
        .and.include('name="next" value="/snippets/"');
      expect(csrfFrom(res.text)).to.have.length.above(20);
    });
  });

  describe('POST /api-auth/login/', () => {
    it('with good credentials regenerates the session id and redirects to next', async () => {
      const agent = supertest.agent(app());
      const form = await agent.get('/api-auth/login/').expect(200);
      const before = cookieOf(form, 'sessionid');
      const res = await agent
        .post('/api-auth/login/')
        .type('form')
        .send({
          username: 'alice',
          password: 'alicepass',
          csrfmiddlewaretoken: csrfFrom(form.text),
          next: '/snippets/',
        })
        .expect(302);
      expect(res.headers.location).to.equal('/snippets/');
      const after = cookieOf(res, 'sessionid');
      expect(after)
        .to.match(/HttpOnly/)
        .and.match(/SameSite=Lax/);
      expect(after).not.to.match(/Secure/);
      expect(after!.split(';')[0]).not.to.equal(before?.split(';')[0]);
    });

    it('redirects to the API root without next, and never off the site', async () => {
      for (const next of [undefined, '//evil.example/', 'https://evil.example/', '/\\evil.example']) {
        const agent = supertest.agent(app());
        const form = await agent.get('/api-auth/login/').expect(200);
        const res = await agent
          .post('/api-auth/login/')
          .type('form')
          .send({
            username: 'alice',
            password: 'alicepass',
            csrfmiddlewaretoken: csrfFrom(form.text),
            ...(next ? { next } : {}),
          })
          .expect(302);
        expect(res.headers.location).to.equal('/');
      }
    });

    it('with a wrong password or an unknown user answers the form again, 200, not saying which field was wrong', async () => {
      for (const [username, password] of [
        ['alice', 'wrong'],
        ['nobody', 'alicepass'],
      ]) {
        const agent = supertest.agent(app());
        const form = await agent.get('/api-auth/login/').expect(200);
        const res = await agent
          .post('/api-auth/login/')
          .type('form')
          .send({ username, password, csrfmiddlewaretoken: csrfFrom(form.text) })
          .expect(200);
        expect(res.text).to.include('Please enter a correct username and password.');
        expect(cookieOf(res, 'sessionid')).to.equal(undefined);
      }
    });

    it('without the CSRF token answers 403', async () => {
      const res = await supertest(app())
        .post('/api-auth/login/')
        .type('form')
        .send({ username: 'alice', password: 'alicepass' })
        .expect(403);
      expect(res.text).to.include('CSRF Failed');
    });
  });

  describe('POST /snippets/ with the session', () => {
    it('without the CSRF token responds 403 "CSRF Failed…" and stores nothing', async () => {
      const { agent } = await login();
      const res = await agent.post('/snippets/').send({ code: 'session no csrf' }).expect(403);
      expect(res.body.detail).to.match(/^CSRF Failed/);
      expect(res.headers).not.to.have.property('www-authenticate');
      expect((await agent.get('/snippets/').expect(200)).body).to.deep.equal([]);
    });

    it('with a wrong CSRF token responds 403', async () => {
      const { agent } = await login();
      await agent.post('/snippets/').set('X-CSRFToken', 'x'.repeat(43)).send({ code: 'x' }).expect(403);
    });

    it('with X-CSRFToken responds 201 owned by the session user', async () => {
      const { agent, csrf } = await login();
      const res = await agent
        .post('/snippets/')
        .set('X-CSRFToken', csrf)
        .send({ code: 'session with csrf' })
        .expect(201);
      expect(res.body.owner).to.equal('alice');
    });

    it('with the token as a form field responds 201', async () => {
      const { agent, csrf } = await login();
      const res = await agent
        .post('/snippets/')
        .type('form')
        .send({ code: 'form', csrfmiddlewaretoken: csrf })
        .expect(201);
      expect(res.body.code).to.equal('form');
    });

    it('needs the token for PUT and DELETE too', async () => {
      const { agent, csrf } = await login();
      const { id } = (await agent.post('/snippets/').set('X-CSRFToken', csrf).send({ code: 'x' }).expect(201)).body;
      await agent.put(`/snippets/${id}/`).send({ code: 'y' }).expect(403);
      await agent.delete(`/snippets/${id}/`).expect(403);
      await agent.put(`/snippets/${id}/`).set('X-CSRFToken', csrf).send({ code: 'y' }).expect(200);
      await agent.delete(`/snippets/${id}/`).set('X-CSRFToken', csrf).expect(204);
    });

    it('is recognised by another app on the same database (sessions live in the database)', async () => {
      const { agent } = await login();
      const cookie = (await agent.get('/snippets/')).request.cookies;
      const other = await supertest(app({ API_AUTH_PREFIX: 'other-auth/' }))
        .get('/snippets/')
        .set('Accept', 'text/html')
        .set('Cookie', cookie)
        .expect(200);
      expect(other.text).to.include('<span class="user">alice</span>');
    });
  });

  describe('logout', () => {
    it('POST /api-auth/logout/ ends the session and redirects', async () => {
      const { agent, csrf } = await login();
      const res = await agent
        .post('/api-auth/logout/')
        .type('form')
        .send({ csrfmiddlewaretoken: csrf, next: '/snippets/' })
        .expect(302);
      expect(res.headers.location).to.equal('/snippets/');
      await agent.post('/snippets/').set('X-CSRFToken', csrf).send({ code: 'after logout' }).expect(401);
    });

    it('GET /api-auth/logout/ only asks to confirm (another site could navigate to it): the session goes on', async () => {
      const { agent, csrf } = await login();
      const res = await agent.get('/api-auth/logout/').expect(200);
      expect(res.text).to.include('id="logout-form"');
      await agent.post('/snippets/').set('X-CSRFToken', csrf).send({ code: 'x' }).expect(201);
      await agent
        .post('/api-auth/logout/')
        .type('form')
        .send({ csrfmiddlewaretoken: csrfFrom(res.text) })
        .expect(302);
      await agent.post('/snippets/').set('X-CSRFToken', csrf).send({ code: 'x' }).expect(401);
    });
  });

  it('a malformed or forged session cookie is simply anonymous', async () => {
    for (const cookie of [
      'sessionid=garbage',
      'sessionid=s%3Aforged.signature',
      'sessionid=%E0%A4%A',
      `sessionid=${'a'.repeat(5000)}`,
    ]) {
      await supertest(app()).get('/snippets/').set('Cookie', cookie).expect(200);
      await supertest(app()).post('/snippets/').set('Cookie', cookie).send({ code: 'x' }).expect(401);
    }
  });

  describe('the session and its user', () => {
    it('are read in one statement: a session-cookie request makes one lookup', async () => {
      const { agent, csrf } = await login();
      let owner: unknown;
      const lookups: string[] = [];
      await readsDuring(
        testStore(),
        (sql, urgent) => urgent && lookups.push(sql),
        async () => {
          owner = (await agent.post('/snippets/').set('X-CSRFToken', csrf).send({ code: 'x' }).expect(201)).body.owner;
        },
      );
      expect(owner).to.equal('alice');
      expect(lookups).to.have.length(1);
    });

    it('a session row stored without its user (by the release before) still acts as its user', async () => {
      const { agent, csrf } = await login();
      await testStore().sequelize.query('UPDATE sessions SET user_id = NULL');
      const res = await agent.post('/snippets/').set('X-CSRFToken', csrf).send({ code: 'x' }).expect(201);
      expect(res.body.owner).to.equal('alice');
    });

    it("a deactivated user's session is anonymous", async () => {
      const { agent, csrf } = await login();
      await testStore().sequelize.query("UPDATE users SET is_active = 0 WHERE username = 'alice'");
      await agent.post('/snippets/').set('X-CSRFToken', csrf).send({ code: 'x' }).expect(401);
    });
  });
});
