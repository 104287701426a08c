// requestContext(req): the procedures' logger is the request's own (its records carry the request's id), made only
// when a procedure asks for it: most requests log nothing but their access record (server/access-log.ts
// requestLoggers makes req.log on first use).
import { expect } from 'chai';
import { requestContext } from '../../../server/auth/context';
import type { Logger } from '../../../src/log';
import { testRuntime } from '../../support/runtime';

describe('requestContext', () => {
  it('hands the procedures the request’s logger, made only when a procedure first asks for it', () => {
    const child = { warn() {} } as unknown as Logger;
    let made = 0;
    const req = {
      requester: { user: null, auth: null },
      app: { locals: { runtime: testRuntime() } },
      get log() {
        made++;
        return child;
      },
    };
    const ctx = requestContext(req as never);
    expect(made, 'the logger was made with the context').to.equal(0);
    expect(ctx.log()).to.equal(child);
    expect(made).to.equal(1);
  });
});
