// Builds the configured authentication schemes, in the order AUTH_SCHEMES gives.
import type { Config } from '../../src/config';
import type { Runtime } from '../../src/runtime';
import { basicScheme } from './basic';
import { bearerScheme } from './bearer';
import type { Csrf } from './csrf';
import { oauth1Scheme } from './oauth1';
import { sessionScheme } from './session';
import { tokenScheme } from './token';
import type { Throttle } from './throttle';
import type { Scheme } from './types';

type SchemeFactory = (runtime: Runtime, throttle: Throttle, csrf: Csrf) => Scheme;

// Schemes that judge expiry read the runtime's clock (Date.now in service; tests hand in their own).
const FACTORIES: Partial<Record<Config['AUTH_SCHEMES'][number], SchemeFactory>> = {
  basic: (runtime, throttle) => basicScheme(runtime, throttle),
  session: (runtime, _throttle, csrf) => sessionScheme(runtime, csrf),
  token: (runtime) => tokenScheme(runtime),
  oauth2: (runtime) => bearerScheme(runtime),
  oauth1: (runtime) => oauth1Scheme(runtime),
};

export function buildSchemes(runtime: Runtime, throttle: Throttle, csrf: Csrf): Scheme[] {
  return runtime.config.AUTH_SCHEMES.flatMap((name) => {
    const factory = FACTORIES[name];
    return factory ? [factory(runtime, throttle, csrf)] : [];
  });
}
