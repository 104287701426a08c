// MIGRATE_ON_START=false: a starting service applies no migration and refuses a schema that is behind.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import {
  describeOnSqlitePass,
  MAIN,
  runCli,
  serviceEnv,
  startService,
  stopService,
  type ServiceProcess,
} from '../support/process';

describeOnSqlitePass('the service with MIGRATE_ON_START=false', () => {
  let service: ServiceProcess | undefined;
  afterEach(async () => {
    if (service) await stopService(service);
    service = undefined;
  });

  it('on a database never migrated: exits 1 naming the pending migrations and `snippets migrate`, creating no table', async () => {
    const env = serviceEnv({ MIGRATE_ON_START: 'false' });
    const res = spawnSync(process.execPath, [MAIN], { env, encoding: 'utf8', timeout: 120_000 });
    expect(res.status).to.equal(1);
    expect(res.stderr).to.match(
      /MIGRATE_ON_START=false and the database lacks \d+ migration\(s\) \(0001-users-and-snippets, .*\): run `snippets migrate` first/,
    );
    // Nothing was applied: the release step still has all of it to do.
    expect(await runCli(env, 'migrate')).to.match(/^Applied: 0001-users-and-snippets/);
  });

  it('after `snippets migrate`: starts and serves', async () => {
    const env = serviceEnv({ MIGRATE_ON_START: 'false' });
    await runCli(env, 'migrate');
    service = await startService(env);
    const res = await fetch(`${service.base}/snippets/`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal([]);
  });
});
