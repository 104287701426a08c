// What a bad-input case is (bench/bad-input-cases.ts makes them by category; bench/bad-input-signin.ts makes issue
// 30's), and what every maker is given.
import type { Rng } from './prng';
import type { RawRequest } from './raw-request';

export interface CaseContext {
  username: string;
  password: string;
  token: string;
  clientId: string;
  clientSecret: string;
  /** The login page's csrftoken cookie and its token, for login form posts that get past the CSRF check. */
  loginCookie: string;
  csrf: string;
  /** A personal access token of the run's user with the read scope (`snp_…`). */
  personalKey: string;
  /** The value of a real `oidc_flow` cookie, from the OpenID Connect login of the bench's provider. */
  oidcFlow: string;
}

export interface Case {
  category: string;
  /** What was sent, short, for the failure list. */
  label: string;
  req: RawRequest;
  /** A valid create's code: its success must store exactly this. */
  code?: string;
}

export type Make = (rng: Rng, ctx: CaseContext, tag: string) => Omit<Case, 'category'>;
