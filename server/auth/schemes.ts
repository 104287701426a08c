// Builds the configured authentication schemes, in the order AUTH_SCHEMES gives.
import type { Config } from '../../src/config';
import { basicScheme } from './basic';
import { bearerScheme } from './bearer';
import { oauth1Scheme } from './oauth1';
import { sessionScheme } from './session';
import { tokenScheme } from './token';
import type { Throttle } from './throttle';
import type { Scheme } from './types';

type SchemeFactory = (config: Config, throttle: Throttle) => Scheme;

const FACTORIES: Partial<Record<Config['AUTH_SCHEMES'][number], SchemeFactory>> = {
  basic: (_config, throttle) => basicScheme(throttle),
  session: () => sessionScheme(),
  token: () => tokenScheme(),
  oauth2: () => bearerScheme(),
  oauth1: () => oauth1Scheme(),
};

export function buildSchemes(config: Config, throttle: Throttle): Scheme[] {
  return config.AUTH_SCHEMES.flatMap((name) => {
    const factory = FACTORIES[name];
    return factory ? [factory(config, throttle)] : [];
  });
}
