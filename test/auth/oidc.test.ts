// OpenID Connect sign-in against a real provider (oidc-provider, test/support/oidc.ts) on a port of its own: the whole
// authorization code flow with PKCE, `state` and `nonce`, driven by Playwright's HTTP client (a cookie jar, redirects
// followed between the two servers as a browser follows them). test/browser/oidc.test.ts clicks through it in Chromium.
import { expect } from 'chai';
import { request, type APIRequestContext, type APIResponse } from 'playwright-core';
import { makeUser, resetDatabase } from '../support/db';
import { app, basic } from '../support/http';
import { serverFor, startProvider, type TestProvider } from '../support/oidc';
import { runtimeWith, testStore } from '../support/runtime';
import { createApp } from '../../server/app';
import { noting } from '../support/log';
import { linkIdentity } from '../../src/auth/identities';
import { updateActive } from '../../src/users/store';

const CALLBACK = '/api-auth/oidc/callback/';

describe('OpenID Connect sign-in (server/auth/oidc.ts, web/oidc.ts)', function () {
  // A bound for a hang: a flow is a dozen requests between two local servers.
  this.timeout(60_000);
  let site: Awaited<ReturnType<typeof serverFor>>;
  let provider: TestProvider;
  let contexts: APIRequestContext[] = [];

  before(async () => {
    site = await serverFor();
    provider = await startProvider([`${site.base}${CALLBACK}`]);
  });
  after(async () => {
    await provider.close();
    await site.close();
  });
  beforeEach(async () => {
    await resetDatabase();
    site.use(app(provider.env));
  });
  afterEach(async () => {
    await Promise.all(contexts.map((c) => c.dispose()));
    contexts = [];
  });

  /** A browser's cookie jar of its own (no session, at the site or at the provider). */
  async function browser(): Promise<APIRequestContext> {
    const context = await request.newContext();
    contexts.push(context);
    return context;
  }

  /** Clicks "Sign in with" and follows every redirect, through the provider and back. */
  async function signIn(context?: APIRequestContext, next = '/snippets/'): Promise<APIResponse> {
    const c = context ?? (await browser());
    return c.get(`${site.base}/api-auth/oidc/login/?next=${encodeURIComponent(next)}`);
  }

  /** Follows the flow up to the provider's redirect back to the site: that callback URL, not yet visited. */
  async function callbackUrl(context: APIRequestContext, alter?: (authorization: URL) => void): Promise<URL> {
    let url = `${site.base}/api-auth/oidc/login/?next=/snippets/`;
    for (let hop = 0; hop < 20; hop++) {
      const res = await context.get(url, { maxRedirects: 0 });
      expect(res.status(), `${url} redirects`).to.be.oneOf([302, 303]);
      const next = new URL(res.headers().location!, url);
      // The site's first redirect is its authorization request to the provider: a test may alter it on its way.
      if (hop === 0) alter?.(next);
      url = next.href;
      if (url.startsWith(`${site.base}${CALLBACK}`)) return new URL(url);
    }
    throw new Error('the flow never came back to the site');
  }

  async function cookie(context: APIRequestContext, name: string): Promise<string | undefined> {
    return (await context.storageState()).cookies.find((c) => c.name === name)?.value;
  }

  async function users(): Promise<{ id: number; username: string }[]> {
    return testStore().models.User.findAll({ attributes: ['id', 'username'], order: [['id', 'ASC']], raw: true });
  }

  describe('the login page', () => {
    it('offers "Sign in with <OIDC_NAME>" beside the password form', async () => {
      const page = await (await browser()).get(`${site.base}/api-auth/login/?next=/snippets/`);
      const text = await page.text();
      expect(text).to.include('id="login-form"');
      expect(text).to.match(/<a id="oidc-login" class="button" href="\/api-auth\/oidc\/login\/\?next=%2Fsnippets%2F">/);
      expect(text).to.include('Sign in with Test IdP');
    });

    it('offers no sign-in without OIDC_ISSUER', async () => {
      site.use(app());
      const text = await (await (await browser()).get(`${site.base}/api-auth/login/`)).text();
      expect(text).to.include('id="login-form"').and.not.include('oidc-login');
      expect((await (await browser()).get(`${site.base}/api-auth/oidc/login/`)).status()).to.equal(404);
    });
  });

  describe('a first sign-in', () => {
    it('creates the user from preferred_username and signs in with a session that writes with its CSRF token', async () => {
      provider.signInAs('sub-alice', { preferred_username: 'alice' });
      const context = await browser();
      const landed = await signIn(context);
      expect(landed.status()).to.equal(200);
      expect(landed.url()).to.equal(`${site.base}/snippets/`);
      expect((await users()).map((u) => u.username)).to.deep.equal(['alice']);

      const csrf = await cookie(context, 'csrftoken');
      const created = await context.post(`${site.base}/snippets/`, {
        data: { code: 'print(1)' },
        headers: { 'X-CSRFToken': csrf! },
      });
      expect(created.status()).to.equal(201);
      expect((await created.json()) as object).to.include({ owner: 'alice' });
      // As after a password login: a session write without the token is refused.
      const forged = await context.post(`${site.base}/snippets/`, { data: { code: 'x' } });
      expect(forged.status()).to.equal(403);
      expect(await forged.json()).to.deep.equal({ detail: 'CSRF Failed: CSRF token missing or incorrect.' });
    });

    it("notes the user's last login, as a password login does (`snippets listusers`, users.last_login)", async () => {
      provider.signInAs('sub-alice', { preferred_username: 'alice' });
      const before = Date.now();
      expect((await signIn()).status()).to.equal(200);
      const [row] = await testStore().models.User.findAll({ attributes: ['last_login'], raw: true });
      const at = new Date(row!.last_login!).getTime();
      expect(at).to.be.within(before, Date.now());
    });

    it('takes the username from UserInfo when the ID token has none (OIDC_USERNAME_CLAIM=email)', async () => {
      site.use(app({ ...provider.env, OIDC_USERNAME_CLAIM: 'email' }));
      provider.signInAs('sub-carol', { preferred_username: 'carol', email: 'carol@example.com' });
      expect((await signIn()).status()).to.equal(200);
      expect((await users()).map((u) => u.username)).to.deep.equal(['carol@example.com']);
    });

    it('refuses, creating no one, when the provider gives no usable username', async () => {
      provider.signInAs('sub-nameless', { name: 'No Username' });
      const res = await signIn();
      expect(res.status()).to.equal(403);
      expect(await res.text()).to.include('gave no usable username');
      expect(await users()).to.deep.equal([]);
    });
  });

  describe('a second sign-in of the same identity', () => {
    it('signs in as the user the first made, whatever username the provider gives now', async () => {
      provider.signInAs('sub-alice', { preferred_username: 'alice' });
      expect((await signIn()).status()).to.equal(200);
      provider.signInAs('sub-alice', { preferred_username: 'alice-renamed' });
      const context = await browser();
      expect((await signIn(context)).status()).to.equal(200);
      expect((await users()).map((u) => u.username)).to.deep.equal(['alice']);
      const created = await context.post(`${site.base}/snippets/`, {
        data: { code: 'x' },
        headers: { 'X-CSRFToken': (await cookie(context, 'csrftoken'))! },
      });
      expect((await created.json()) as object).to.include({ owner: 'alice' });
    });
  });

  describe('a username held by another account', () => {
    it('is refused with a page that says so and shows the linkuser command; no session', async () => {
      await makeUser('alice');
      provider.signInAs('sub-other', { preferred_username: 'alice' });
      const context = await browser();
      const res = await signIn(context);
      expect(res.status()).to.equal(403);
      const text = await res.text();
      expect(text).to.include('<strong>alice</strong> belongs to another account');
      expect(text).to.include(`snippets linkuser alice --issuer ${provider.issuer} --subject sub-other`);
      expect(await cookie(context, 'sessionid')).to.equal(undefined);
      expect((await users()).map((u) => u.username)).to.deep.equal(['alice']);
    });

    it('signs in as that account once the identity is linked to it (`snippets linkuser`, test/server/commands/linkuser.test.ts)', async () => {
      const alice = await makeUser('alice');
      expect(await linkIdentity(testStore(), alice, provider.issuer, 'sub-other')).to.deep.equal({ linked: true });
      provider.signInAs('sub-other', { preferred_username: 'somebody-else' });
      const context = await browser();
      expect((await signIn(context)).status()).to.equal(200);
      const me = await context.post(`${site.base}/snippets/`, {
        data: { code: 'x' },
        headers: { 'X-CSRFToken': (await cookie(context, 'csrftoken'))! },
      });
      expect((await me.json()) as object).to.include({ owner: 'alice' });
      expect((await users()).map((u) => u.username)).to.deep.equal(['alice']);
    });
  });

  describe('a deactivated user', () => {
    it('is refused, with no session', async () => {
      provider.signInAs('sub-alice', { preferred_username: 'alice' });
      expect((await signIn()).status()).to.equal(200);
      await updateActive(testStore(), 'alice', false);
      const context = await browser();
      const res = await signIn(context);
      expect(res.status()).to.equal(403);
      expect(await res.text()).to.include('This account is deactivated.');
      expect(await cookie(context, 'sessionid')).to.equal(undefined);
    });
  });

  describe('a forged or replayed callback', () => {
    it('with another state is refused 400, and signs no one in', async () => {
      provider.signInAs('sub-alice', { preferred_username: 'alice' });
      const context = await browser();
      const url = await callbackUrl(context);
      expect(url.searchParams.get('state')).to.have.length.above(20);
      url.searchParams.set('state', 'forged-state-value');
      const res = await context.get(url.href, { maxRedirects: 0 });
      expect(res.status()).to.equal(400);
      expect(await res.text()).to.include('This sign-in is not valid');
      expect(await cookie(context, 'sessionid')).to.equal(undefined);
      expect(await users()).to.deep.equal([]);
    });

    it('whose ID token carries another nonce (the authorization request altered on its way) is refused 400', async () => {
      provider.signInAs('sub-alice', { preferred_username: 'alice' });
      const context = await browser();
      const url = await callbackUrl(context, (authorization) => {
        expect(authorization.searchParams.get('nonce')).to.have.length.above(20);
        authorization.searchParams.set('nonce', 'forged-nonce-value');
      });
      // The state and the PKCE verifier fit this browser's flow: only the ID token's nonce does not.
      const res = await context.get(url.href, { maxRedirects: 0 });
      expect(res.status()).to.equal(400);
      expect(await res.text()).to.include('This sign-in is not valid');
      expect(await cookie(context, 'sessionid')).to.equal(undefined);
      expect(await users()).to.deep.equal([]);
    });

    it('without the flow cookie (another browser) is refused 400', async () => {
      provider.signInAs('sub-alice', { preferred_username: 'alice' });
      const url = await callbackUrl(await browser());
      const res = await (await browser()).get(url.href, { maxRedirects: 0 });
      expect(res.status()).to.equal(400);
      expect(await users()).to.deep.equal([]);
    });

    it('replayed after it signed in is refused 400: the flow is over, and the code is spent', async () => {
      provider.signInAs('sub-alice', { preferred_username: 'alice' });
      const context = await browser();
      const url = await callbackUrl(context);
      const flow = await cookie(context, 'oidc_flow');
      expect((await context.get(url.href, { maxRedirects: 0 })).status()).to.equal(302);
      expect(await cookie(context, 'oidc_flow')).to.equal(undefined);
      expect((await context.get(url.href, { maxRedirects: 0 })).status()).to.equal(400);
      // With the flow's cookie put back, the provider refuses the code a second time.
      const replay = await fetch(url, { redirect: 'manual', headers: { Cookie: `oidc_flow=${flow}` } });
      expect(replay.status).to.equal(400);
      expect(replay.headers.getSetCookie().some((c) => c.startsWith('sessionid='))).to.equal(false);
    });

    it('whose flow cookie was altered (its signature no longer fits) is refused 400', async () => {
      provider.signInAs('sub-alice', { preferred_username: 'alice' });
      const context = await browser();
      const url = await callbackUrl(context);
      const [payload, signature] = (await cookie(context, 'oidc_flow'))!.split('.');
      const flow = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
      const altered = Buffer.from(JSON.stringify({ ...flow, next: '/users/' })).toString('base64url');
      const res = await fetch(url, { redirect: 'manual', headers: { Cookie: `oidc_flow=${altered}.${signature}` } });
      expect(res.status).to.equal(400);
      expect(await users()).to.deep.equal([]);
    });

    it('whose flow cookie expired (ten minutes by the runtime clock) is refused 400', async () => {
      let now = Date.now();
      site.use(noting(createApp(runtimeWith(provider.env, () => now))));
      provider.signInAs('sub-alice', { preferred_username: 'alice' });
      const context = await browser();
      const url = await callbackUrl(context);
      now += 10 * 60 * 1000 + 1;
      expect((await context.get(url.href, { maxRedirects: 0 })).status()).to.equal(400);
      expect(await users()).to.deep.equal([]);
    });
  });

  describe('the provider', () => {
    it('declining (the person cancelled) is refused 403 with its error', async () => {
      provider.decline('access_denied');
      const res = await signIn();
      expect(res.status()).to.equal(403);
      expect(await res.text()).to.include('Test IdP did not sign you in (access_denied)');
    });

    it('down at the start is 503 with Retry-After, at once, and the next start tries again', async () => {
      const down = await serverFor();
      await down.close();
      const env = { ...provider.env, OIDC_ISSUER: down.base };
      site.use(app(env));
      const res = await (await browser()).get(`${site.base}/api-auth/oidc/login/`, { maxRedirects: 0 });
      expect(res.status()).to.equal(503);
      expect(res.headers()['retry-after']).to.equal('1');
      expect(await res.text()).to.include('Test IdP cannot be reached at the moment');
    });

    it('silent (accepting, never answering) is 503 past OIDC_TIMEOUT_MS, not a hang', async () => {
      const silent = await serverFor();
      silent.use(() => {});
      try {
        site.use(app({ ...provider.env, OIDC_ISSUER: silent.base, OIDC_TIMEOUT_MS: '300' }));
        const res = await (await browser()).get(`${site.base}/api-auth/oidc/login/`, { maxRedirects: 0 });
        expect(res.status()).to.equal(503);
      } finally {
        await silent.close();
      }
    });

    it('down at the callback is 503, and signs no one in', async () => {
      const own = await startProvider([`${site.base}${CALLBACK}`]);
      site.use(app(own.env));
      own.signInAs('sub-alice', { preferred_username: 'alice' });
      const context = await browser();
      const url = await callbackUrl(context);
      await own.close();
      const res = await context.get(url.href, { maxRedirects: 0 });
      expect(res.status()).to.equal(503);
      expect(await cookie(context, 'sessionid')).to.equal(undefined);
      expect(await users()).to.deep.equal([]);
    });
  });

  describe('PASSWORD_LOGIN=false', () => {
    beforeEach(async () => {
      await makeUser('bob');
      site.use(app({ ...provider.env, PASSWORD_LOGIN: 'false' }));
    });

    it('hides the password form and keeps the sign-in', async () => {
      const text = await (await (await browser()).get(`${site.base}/api-auth/login/`)).text();
      expect(text).to.include('Sign in with Test IdP').and.not.include('id="login-form"');
      expect(text).not.to.include('name="password"');
    });

    it('refuses the form POST 403 with good credentials, with no session', async () => {
      const context = await browser();
      await context.get(`${site.base}/api-auth/login/`);
      const res = await context.post(`${site.base}/api-auth/login/`, {
        form: { username: 'bob', password: 'bobpass', next: '/snippets/' },
        maxRedirects: 0,
      });
      expect(res.status()).to.equal(403);
      expect(await res.text()).to.include('Logging in with a password is turned off here.');
      expect(await cookie(context, 'sessionid')).to.equal(undefined);
    });

    it('keeps Basic and the token endpoint', async () => {
      const context = await browser();
      const created = await context.post(`${site.base}/snippets/`, {
        data: { code: 'x' },
        headers: { Authorization: basic('bob') },
      });
      expect(created.status()).to.equal(201);
      const token = await context.post(`${site.base}/api-token-auth/`, {
        data: { username: 'bob', password: 'bobpass' },
      });
      expect(token.status()).to.equal(200);
    });

    it('says so when no provider is configured either', async () => {
      site.use(app({ PASSWORD_LOGIN: 'false' }));
      const text = await (await (await browser()).get(`${site.base}/api-auth/login/`)).text();
      expect(text).to.include('Logging in with a password is turned off here.').and.not.include('oidc-login');
    });
  });
});
