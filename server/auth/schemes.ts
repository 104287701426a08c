// Builds the configured authentication schemes, in the order AUTH_SCHEMES gives.
import type { Config } from '../../src/config';
import { basicScheme } from './basic';
import { bearerScheme } from './bearer';
import { sessionScheme } from './session';
import { tokenScheme } from './token';
import type { Scheme } from './types';

type SchemeFactory = (config: Config) => Scheme;

const FACTORIES: Partial<Record<Config['AUTH_SCHEMES'][number], SchemeFactory>> = {
  basic: () => basicScheme(),
  session: () => sessionScheme(),
  token: () => tokenScheme(),
  oauth2: () => bearerScheme(),
};

export function buildSchemes(config: Config): Scheme[] {
  return config.AUTH_SCHEMES.flatMap((name) => {
    const factory = FACTORIES[name];
    return factory ? [factory(config)] : [];
  });
}
