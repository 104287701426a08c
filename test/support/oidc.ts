// A real OpenID Connect provider for the tests: panva's oidc-provider (the certified Node implementation), in this
// process on a free loopback port, with one confidential client (client_secret_basic, PKCE required). Its login and
// consent are scripted: the person who "signs in" there is the account the test named last (`signInAs`), or the
// provider declines (`decline`). The app under test listens on a port of its own, so the browser's (or the HTTP
// client's) redirects go between two real servers.
import { generateKeyPairSync } from 'node:crypto';
import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidcProvider from 'oidc-provider';

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The settings that point the service at this provider. */
  env: Record<string, string>;
  /** The account the next sign-in at the provider is: its subject and the claims it gives (preferred_username…). */
  signInAs(subject: string, claims?: Record<string, unknown>): void;
  /** The next sign-in at the provider ends with this error (access_denied: the person cancelled). */
  decline(error: string): void;
  /** Stops answering (a provider that is down): its port then refuses connections. */
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A server on a free loopback port whose handler is given later (the app and the provider each need the other's URL). */
export async function serverFor(): Promise<{
  base: string;
  use(handler: RequestListener): void;
  close(): Promise<void>;
}> {
  let handler: RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  const base = await listen(server);
  return {
    base,
    use: (h) => void (handler = h),
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Where the provider keeps its records: in memory (its own default, which warns on every start that it is for tests). */
class MemoryAdapter {
  private static readonly records = new Map<string, Record<string, unknown>>();
  constructor(private readonly model: string) {}
  private key(id: string) {
    return `${this.model}:${id}`;
  }
  upsert(id: string, payload: Record<string, unknown>) {
    MemoryAdapter.records.set(this.key(id), payload);
    if (typeof payload.uid === 'string') MemoryAdapter.records.set(this.key(`uid:${payload.uid}`), payload);
  }
  find(id: string) {
    return MemoryAdapter.records.get(this.key(id));
  }
  findByUid(uid: string) {
    return MemoryAdapter.records.get(this.key(`uid:${uid}`));
  }
  findByUserCode() {
    return undefined;
  }
  consume(id: string) {
    const record = MemoryAdapter.records.get(this.key(id));
    if (record) record.consumed = Math.floor(Date.now() / 1000);
  }
  destroy(id: string) {
    MemoryAdapter.records.delete(this.key(id));
  }
  revokeByGrantId(grantId: string) {
    for (const [key, record] of MemoryAdapter.records)
      if (record.grantId === grantId) MemoryAdapter.records.delete(key);
  }
}

export async function startProvider(redirectUris: string[]): Promise<TestProvider> {
  const server = await serverFor();
  const issuer = server.base;
  const clientId = 'snippets-test';
  const clientSecret = 'provider-client-secret-for-tests';
  const accounts = new Map<string, Record<string, unknown>>();
  let next: { subject: string } | { error: string } = { error: 'login_required' };
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new oidcProvider.default(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    // A confidential client need not use PKCE by default: this provider refuses one that does not.
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'] },
    findAccount: (_ctx: unknown, sub: string) =>
      accounts.has(sub) ? { accountId: sub, claims: () => ({ sub, ...accounts.get(sub) }) } : undefined,
    cookies: { keys: ['provider-cookie-key-for-tests'] },
    adapter: MemoryAdapter,
    // Lifetimes of its own (in seconds): its defaults are functions that print a notice when called.
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
  });
  const callback = provider.callback();
  server.use(async (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    // The scripted login and consent: what a person would type and click at the provider.
    try {
      const details = await provider.interactionDetails(req, res);
      const outcome = next;
      if ('error' in outcome) {
        await provider.interactionFinished(req, res, { error: outcome.error }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = new provider.Grant({ accountId: outcome.subject, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: outcome.subject }, consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: false },
      );
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  return {
    issuer,
    clientId,
    clientSecret,
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret, OIDC_NAME: 'Test IdP' },
    signInAs(subject, claims = {}) {
      accounts.set(subject, claims);
      next = { subject };
    },
    decline(error) {
      next = { error };
    },
    close: () => server.close(),
  };
}
