// Credentials never reach the log, even at LOG_LEVEL=debug and when requests fail.
import { expect } from 'chai';
import { csrfFrom } from '../support/pages';
import { runCli, serviceEnv, startService, stopService, type ServiceProcess } from '../support/process';

describe('the service log', function () {
  this.timeout(600_000);
  let service: ServiceProcess | undefined;
  after(async () => service && stopService(service));

  it('holds no password, token, session id, CSRF token or client secret after requests with each of them', async () => {
    const env = serviceEnv({ LOG_LEVEL: 'debug', THROTTLE_LOGIN: '1000/minute' });
    runCli(env, 'createuser', 'alice', '--password', 'S3cret-alice-pass');
    runCli(env, 'createclient', 'app', '--client-id', 'log-client', '--client-secret', 'S3cret-client-secret');
    service = await startService(env, { capture: true });
    const base = service.base;
    const basic = (pw: string) => `Basic ${Buffer.from(`alice:${pw}`).toString('base64')}`;
    const post = (path: string, headers: Record<string, string>, body: string, type = 'application/json') =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': type, ...headers }, body, redirect: 'manual' });

    await post('/snippets/', { Authorization: basic('S3cret-alice-pass') }, '{"code":"x"}');
    await post('/snippets/', { Authorization: basic('S3cret-wrong-pass') }, '{"code":"x"}');
    await post('/snippets/', { Authorization: basic('S3cret-alice-pass') }, '{"code":'); // a 400 on a bad body
    const { token } = (await (await post('/api-token-auth/', {}, JSON.stringify({ username: 'alice', password: 'S3cret-alice-pass' }))).json()) as { token: string };
    await post('/snippets/', { Authorization: `Token ${token}` }, '{"code":"x"}');
    await post('/snippets/', { Authorization: 'Token S3cretWrongToken' }, '{"code":"x"}');
    const grant = new URLSearchParams({ grant_type: 'password', username: 'alice', password: 'S3cret-alice-pass', client_id: 'log-client', client_secret: 'S3cret-client-secret' });
    const { access_token: access, refresh_token: refresh } = (await (await post('/oauth2/access_token/', {}, grant.toString(), 'application/x-www-form-urlencoded')).json()) as Record<string, string>;
    await post('/snippets/', { Authorization: `Bearer ${access}` }, '{"code":"x"}');
    await post('/oauth2/access_token/', {}, new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh!, client_id: 'log-client', client_secret: 'S3cret-client-secret' }).toString(), 'application/x-www-form-urlencoded');
    const form = await fetch(`${base}/api-auth/login/`);
    const cookie = form.headers.getSetCookie()[0]!.split(';')[0]!;
    const csrf = csrfFrom(await form.text());
    const login = await post('/api-auth/login/', { Cookie: cookie }, new URLSearchParams({ username: 'alice', password: 'S3cret-alice-pass', csrfmiddlewaretoken: csrf }).toString(), 'application/x-www-form-urlencoded');
    const session = login.headers.getSetCookie()[0]!.split(';')[0]!.split('=')[1]!;
    await fetch(`${base}/snippets/`, { headers: { Cookie: `sessionid=${session}` } });

    await stopService(service);
    const log = service.output();
    expect(log).to.include('serving on'); // the capture works
    for (const secret of ['S3cret', token, access!, refresh!, csrf, decodeURIComponent(session).slice(2, 30), Buffer.from('alice:S3cret-alice-pass').toString('base64')]) {
      expect(log, secret).not.to.include(secret);
    }
  });
});
