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

type SchemeFactory = (config: Config, throttle: Throttle, csrf: Csrf) => Scheme;

const FACTORIES: Partial<Record<Config['AUTH_SCHEMES'][number], SchemeFactory>> = {
  basic: (_config, throttle) => basicScheme(throttle),
  session: (_config, _throttle, csrf) => sessionScheme(csrf),
  token: () => tokenScheme(),
  oauth2: () => bearerScheme(),
  oauth1: () => oauth1Scheme(),
};

export function buildSchemes(config: Config, throttle: Throttle, csrf: Csrf): Scheme[] {
  return config.AUTH_SCHEMES.flatMap((name) => {
    const factory = FACTORIES[name];
    return factory ? [factory(config, throttle, csrf)] : [];
  });
}
