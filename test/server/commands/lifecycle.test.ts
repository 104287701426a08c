// A user's lifecycle from the CLI, seen over HTTP by a running service: a deactivated user authenticates by no scheme.
// The commands run as `snippets` runs them (runCommandLine, with a runtime of their own), the service in the test's
// process (support/in-process.ts) with a runtime of its own on the same SQLite file: its caches are not the commands',
// as a spawned service's are not, without the seconds a process costs to start.
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import OAuth from 'oauth-1.0a';
import { sameDatabase, serviceInProcess, type InProcessService } from '../../support/in-process';
import { csrfFrom, loginThroughForm } from '../../support/pages';
import { runCli, serviceEnv } from '../../support/process';

/** `key=value` lines as the CLI prints credentials. */
const lines = (out: string) =>
  Object.fromEntries(out.split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));

describe('deactivateuser and activateuser, over HTTP', function () {
  this.timeout(600_000);
  let service: InProcessService | undefined;
  after(async () => service?.close());

  it('a deactivated user gets 401 by Basic, Token, OAuth 2.0, OAuth 1.0a and session, and no new credential; activated, all work again', async () => {
    const env = serviceEnv({ AUTH_SCHEMES: 'basic,session,token,oauth2,oauth1', THROTTLE_LOGIN: '1000/minute' });
    await runCli(env, 'createuser', 'alice', '--password', 'alice-password');
    const token = await runCli(env, 'createtoken', 'alice');
    await runCli(env, 'createclient', 'app', '--client-id', 'app-client', '--client-secret', 'app-client-secret');
    const consumer = lines(await runCli(env, 'createconsumer', 'app'));
    const oauth1 = lines(await runCli(env, 'createoauth1token', 'alice', '--consumer', consumer.consumer_key!));
    service = await serviceInProcess({
      ...sameDatabase(env),
      AUTH_SCHEMES: 'basic,session,token,oauth2,oauth1',
      THROTTLE_LOGIN: '1000/minute',
    });
    const base = service.base;
    const grant = (username: string) =>
      fetch(`${base}/oauth2/access_token/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          username,
          password: 'alice-password',
          client_id: 'app-client',
          client_secret: 'app-client-secret',
        }),
      });
    const { access_token: bearer } = (await (await grant('alice')).json()) as { access_token: string };
    const session = await loginThroughForm(base, 'alice', 'alice-password');
    // The session's CSRF token, read while the user can write (a page shows no form to an anonymous requester).
    const csrf = csrfFrom(
      await (await fetch(`${base}/snippets/`, { headers: { Cookie: session, Accept: 'text/html' } })).text(),
    );
    const signer = new OAuth({
      consumer: { key: consumer.consumer_key!, secret: consumer.consumer_secret! },
      signature_method: 'HMAC-SHA1',
      realm: 'api',
      hash_function: (text, key) => createHmac('sha1', key).update(text).digest('base64'),
    });

    const create = (headers: Record<string, string>) =>
      fetch(`${base}/snippets/`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: '{"code":"x"}',
      });
    const schemes = {
      basic: () => create({ Authorization: `Basic ${Buffer.from('alice:alice-password').toString('base64')}` }),
      token: () => create({ Authorization: `Token ${token}` }),
      oauth2: () => create({ Authorization: `Bearer ${bearer}` }),
      oauth1: () =>
        create({
          Authorization: signer.toHeader(
            signer.authorize(
              { method: 'POST', url: `${base}/snippets/` },
              { key: oauth1.oauth_token!, secret: oauth1.oauth_token_secret! },
            ),
          ).Authorization,
        }),
      session: () => create({ Cookie: session, 'X-CSRFToken': csrf }),
    };
    const statuses = async () =>
      Object.fromEntries(
        await Promise.all(Object.entries(schemes).map(async ([name, send]) => [name, (await send()).status])),
      );

    expect(await statuses()).to.deep.equal({ basic: 201, token: 201, oauth2: 201, oauth1: 201, session: 201 });

    expect(await runCli(env, 'deactivateuser', 'alice')).to.equal('Deactivated user alice.');
    expect(await statuses()).to.deep.equal({ basic: 401, token: 401, oauth2: 401, oauth1: 401, session: 401 });
    const refused = await schemes.token();
    expect(refused.headers.get('www-authenticate')).to.equal('Basic realm="api"');
    expect(await refused.json()).to.deep.equal({ detail: 'Invalid token.' });
    // Nor can the password get a new token of either kind.
    expect((await grant('alice')).status).to.equal(400);
    const tokenAuth = await fetch(`${base}/api-token-auth/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"username":"alice","password":"alice-password"}',
    });
    expect(tokenAuth.status).to.equal(400);

    expect(await runCli(env, 'activateuser', 'alice')).to.equal('Activated user alice.');
    expect(await statuses()).to.deep.equal({ basic: 201, token: 201, oauth2: 201, oauth1: 201, session: 201 });
  });
});
