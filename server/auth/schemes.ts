// Builds the configured authentication schemes, in the order AUTH_SCHEMES gives.
import type { Config } from '../../src/config';
import { basicScheme } from './basic';
import { bearerScheme } from './bearer';
import type { Csrf } from './csrf';
import { oauth1Scheme } from './oauth1';
import { sessionScheme } from './session';
import { tokenScheme } from './token';
import type { Throttle } from './throttle';
import type { Scheme } from './types';

/** `now` is the clock of schemes that judge expiry (Date.now in service; tests hand in their own). */
type SchemeFactory = (config: Config, throttle: Throttle, csrf: Csrf, now: () => number) => Scheme;

const FACTORIES: Partial<Record<Config['AUTH_SCHEMES'][number], SchemeFactory>> = {
  basic: (_config, throttle) => basicScheme(throttle),
  session: (_config, _throttle, csrf) => sessionScheme(csrf),
  token: () => tokenScheme(),
  oauth2: (_config, _throttle, _csrf, now) => bearerScheme(now),
  oauth1: (_config, _throttle, _csrf, now) => oauth1Scheme({ now }),
};

export function buildSchemes(config: Config, throttle: Throttle, csrf: Csrf, now: () => number = Date.now): Scheme[] {
  return config.AUTH_SCHEMES.flatMap((name) => {
    const factory = FACTORIES[name];
    return factory ? [factory(config, throttle, csrf, now)] : [];
  });
}
