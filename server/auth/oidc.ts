// OpenID Connect sign-in (docs/authentication.md "Single sign-on"), with openid-client: the authorization code flow
// with PKCE, `state` and `nonce`, against the provider OIDC_ISSUER names. No HTML: web/oidc.ts shows the outcomes.
//
// What a flow needs between its start and its callback travels in one cookie, signed with SECRET_KEY, holding a random
// flow id, the page to return to, the redirect URI and an expiry. The PKCE verifier, `state` and `nonce` are keyed
// digests of the flow id, so none of them is in the cookie, and the service stores nothing for a sign-in that is
// never finished (a session row is made only by a sign-in that succeeds, as with the password form).
import { createHmac } from 'node:crypto';
import cookieParser from 'cookie-parser';
import type { Request, Response } from 'express';
import * as oidc from 'openid-client';
import { oidcProvider, type Config } from '../../src/config';
import { randomKey, safeEqual } from '../../src/auth/digest';
import type { Identity } from '../../src/auth/identities';
import type { Runtime } from '../../src/runtime';
import { secretKey } from '../../src/store/secret-key';

export const FLOW_COOKIE = 'oidc_flow';
/** How long a person has at the provider to sign in. */
const FLOW_TTL_MS = 10 * 60 * 1000;
/** `openid` for the ID token; `profile` and `email` for the claims a username is usually taken from. */
const SCOPE = 'openid profile email';

export type OidcOutcome =
  | { identity: Identity; next: string }
  /** The callback is not a sign-in this browser started, or the provider's answer does not verify: 400. */
  | { invalid: string }
  /** The provider said no (the person cancelled, or it refused the client): its error code. */
  | { declined: string }
  /** The provider cannot be reached, timed out or failed: 503. */
  | { unavailable: true };

export interface OidcSignIn {
  /** "Sign in with <name>". */
  readonly name: string;
  /** Starts a flow: sets its cookie and resolves to the provider's authorization URL; null when the provider is down. */
  start(req: Request, res: Response, callbackPath: string, next: string): Promise<URL | null>;
  /** Finishes the flow at the callback (its cookie cleared, whatever the outcome). */
  finish(req: Request, res: Response, callbackPath: string): Promise<OidcOutcome>;
}

interface Flow {
  /** The flow id: the PKCE verifier, `state` and `nonce` are derived from it. */
  id: string;
  next: string;
  /** The redirect URI sent to the provider, which the code exchange must repeat. */
  redirect: string;
  /** Expiry, ms since the epoch (the runtime's clock). */
  exp: number;
}

const parseCookies = cookieParser();

/** True when openid-client could not get an answer from the provider, or the provider failed (5xx): not the client's doing. */
function providerDown(err: unknown): boolean {
  if (err instanceof oidc.AuthorizationResponseError || err instanceof oidc.WWWAuthenticateChallengeError) return false;
  if (err instanceof oidc.ResponseBodyError) return err.status >= 500;
  if (err instanceof oidc.ClientError) {
    const status = (err.cause as { status?: unknown } | undefined)?.status;
    return typeof status === 'number' && status >= 500;
  }
  // fetch failed (refused, reset, DNS) or the deadline (a TimeoutError).
  return true;
}

/** The sign-in with the configured provider, or undefined when none is configured. */
export function oidcSignIn(runtime: Runtime): OidcSignIn | undefined {
  const provider = oidcProvider(runtime.config);
  if (!provider) return undefined;
  const { log, config } = runtime;
  const key = secretKey(config);
  const derive = (purpose: string, id: string) =>
    createHmac('sha256', key).update(`oidc-${purpose}|${id}`).digest('base64url');
  const sign = (payload: string) => derive('flow', payload);

  let discovered: Promise<oidc.Configuration> | undefined;
  /** Discovery on first use, kept once it succeeds; a failure is tried again by the next sign-in. */
  const configuration = () =>
    (discovered ??= discover(config, provider).catch((err: unknown) => {
      discovered = undefined;
      throw err;
    }));

  const cookieOptions = (req: Request, callbackPath: string) => ({
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level GET navigation from its site, which carries the cookie.
    sameSite: 'lax' as const,
    secure: req.secure,
    path: callbackPath,
  });

  function readFlow(req: Request): Flow | undefined {
    parseCookies(req, undefined as never, () => {});
    const value = (req.cookies as Record<string, unknown>)[FLOW_COOKIE];
    if (typeof value !== 'string') return undefined;
    const [payload = '', signature = ''] = value.split('.');
    if (!payload || !safeEqual(signature, sign(payload))) return undefined;
    try {
      const flow = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Flow;
      return typeof flow.exp === 'number' && flow.exp > runtime.now() ? flow : undefined;
    } catch {
      return undefined;
    }
  }

  return {
    name: provider.name,

    async start(req, res, callbackPath, next) {
      let server: oidc.Configuration;
      try {
        server = await configuration();
      } catch (err) {
        log.warn({ issuer: provider.issuer, err: String(err) }, 'OpenID Connect discovery failed');
        return null;
      }
      // The URI the provider sends the person back to: this site as the request reached it (behind a proxy, with
      // TRUST_PROXY, the proxy's scheme and host); the provider accepts only the ones registered with it.
      const redirect = `${req.protocol}://${req.host}${callbackPath}`;
      const flow: Flow = { id: randomKey(32, 'base64url'), next, redirect, exp: runtime.now() + FLOW_TTL_MS };
      const payload = Buffer.from(JSON.stringify(flow)).toString('base64url');
      res.cookie(FLOW_COOKIE, `${payload}.${sign(payload)}`, {
        ...cookieOptions(req, callbackPath),
        maxAge: FLOW_TTL_MS,
      });
      return oidc.buildAuthorizationUrl(server, {
        redirect_uri: redirect,
        scope: SCOPE,
        code_challenge: await oidc.calculatePKCECodeChallenge(derive('pkce', flow.id)),
        code_challenge_method: 'S256',
        state: derive('state', flow.id),
        nonce: derive('nonce', flow.id),
      });
    },

    async finish(req, res, callbackPath) {
      const flow = readFlow(req);
      res.clearCookie(FLOW_COOKIE, cookieOptions(req, callbackPath));
      if (!flow) return { invalid: 'no sign-in was started in this browser, or it took longer than ten minutes' };
      // The callback's parameters on the redirect URI the flow sent: the code exchange repeats that URI exactly.
      const current = new URL(flow.redirect);
      current.search = new URL(req.originalUrl, 'http://callback').search;
      try {
        const server = await configuration();
        const tokens = await oidc.authorizationCodeGrant(server, current, {
          pkceCodeVerifier: derive('pkce', flow.id),
          expectedState: derive('state', flow.id),
          expectedNonce: derive('nonce', flow.id),
          idTokenExpected: true,
        });
        const claims = tokens.claims()!;
        let username = claims[provider.usernameClaim];
        // Providers that follow OpenID Connect Core 1.0 section 5.4 put profile claims in the UserInfo answer only.
        if (username === undefined && tokens.access_token && server.serverMetadata().userinfo_endpoint) {
          username = (await oidc.fetchUserInfo(server, tokens.access_token, claims.sub))[provider.usernameClaim];
        }
        return {
          identity: {
            issuer: claims.iss,
            subject: claims.sub,
            username: typeof username === 'string' ? username : undefined,
          },
          next: flow.next,
        };
      } catch (err) {
        if (providerDown(err)) {
          log.warn({ issuer: provider.issuer, err: String(err) }, 'OpenID Connect provider unavailable');
          return { unavailable: true };
        }
        if (err instanceof oidc.AuthorizationResponseError) return { declined: err.error };
        log.info({ issuer: provider.issuer, err: String(err) }, 'OpenID Connect sign-in refused');
        return { invalid: 'the answer from the provider could not be verified' };
      }
    },
  };
}

function discover(config: Config, provider: NonNullable<ReturnType<typeof oidcProvider>>): Promise<oidc.Configuration> {
  const issuer = new URL(provider.issuer);
  return oidc.discovery(issuer, provider.clientId, undefined, oidc.ClientSecretBasic(provider.clientSecret), {
    // openid-client counts in seconds; the same deadline then bounds every later request to the provider.
    timeout: config.OIDC_TIMEOUT_MS / 1000,
    // Plain http only for a provider on this machine (src/config.ts refuses it elsewhere).
    execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
  });
}
