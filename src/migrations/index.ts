// The ordered list of schema migrations; append, never edit one that has shipped.
import type { QueryInterface } from 'sequelize';
import * as m0001 from './0001-users-and-snippets';
import * as m0002 from './0002-auth';
import * as m0003 from './0003-oauth1';
import * as m0004 from './0004-user-active';
import * as m0005 from './0005-tables-utf8mb4';
import * as m0006 from './0006-snippet-search';
import * as m0007 from './0007-snippet-revisions';
import * as m0008 from './0008-snippets-owner-created';
import * as m0009 from './0009-storage-usage';
import * as m0011 from './0011-personal-tokens';
import * as m0012 from './0012-user-identities';
import * as m0013 from './0013-search-automerge';
import * as m0014 from './0014-user-last-login';
import * as m0015 from './0015-search-index';
import * as m0016 from './0016-search-detail-none';
import * as m0017 from './0017-search-update-when-text-changed';
import * as m0018 from './0018-search-contentless';
import * as m0019 from './0019-user-storage';
import * as m0020 from './0020-session-user';

export interface Migration {
  name: string;
  up(qi: QueryInterface): Promise<void>;
  down(qi: QueryInterface): Promise<void>;
}

export const migrations: Migration[] = [
  { name: '0001-users-and-snippets', ...m0001 },
  { name: '0002-auth', ...m0002 },
  { name: '0003-oauth1', ...m0003 },
  { name: '0004-user-active', ...m0004 },
  { name: '0005-tables-utf8mb4', ...m0005 },
  { name: '0006-snippet-search', ...m0006 },
  { name: '0007-snippet-revisions', ...m0007 },
  { name: '0008-snippets-owner-created', ...m0008 },
  { name: '0009-storage-usage', ...m0009 },
  { name: '0011-personal-tokens', ...m0011 },
  { name: '0012-user-identities', ...m0012 },
  { name: '0013-search-automerge', ...m0013 },
  { name: '0014-user-last-login', ...m0014 },
  { name: '0015-search-index', up: (qi) => m0015.up(qi), down: m0015.down },
  { name: '0016-search-detail-none', ...m0016 },
  { name: '0017-search-update-when-text-changed', ...m0017 },
  { name: '0018-search-contentless', ...m0018 },
  { name: '0019-user-storage', ...m0019 },
  { name: '0020-session-user', ...m0020 },
];
