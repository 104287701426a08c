// The flags `npm start` gives node (server/start-flags.ts): a service started with them says nothing of them; one started
// as `node dist/server/main.js` on a Node that has them as flags (22, 23) says once, at info, which it lacks.
import { expect } from 'chai';
import { ASYNC_CONTEXT_FRAME, startFlags } from '../../server/start-flags';
import { serviceEnv, startService, stopService, written, type ServiceProcess } from '../support/process';

const SAID = 'started without the flags npm start gives node';

describe('the service and the flags npm start gives node', function () {
  let service: ServiceProcess | undefined;
  afterEach(async () => {
    if (service) await stopService(service);
    service = undefined;
  });

  const started = async (nodeFlags: string[]) => {
    service = await startService(serviceEnv({ LOG_LEVEL: 'info' }), { capture: true, nodeFlags });
    await written(service, 'serving on');
    return service.output();
  };

  it('started as npm start starts it: no word of them', async () => {
    expect(await started(startFlags())).not.to.include(SAID);
  });

  it('started without them on a Node that has them as flags: one info record naming them', async function () {
    if (!startFlags().length) this.skip();
    const lines = (await started([])).split('\n').filter((l) => l.includes(SAID));
    expect(lines).to.have.length(1);
    expect(JSON.parse(lines[0]!))
      .to.include({ level: 'info' })
      .and.to.deep.include({ flags: [ASYNC_CONTEXT_FRAME] });
  });
});
