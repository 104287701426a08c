// The route-name registry's helpers.
import { expect } from 'chai';
import { mountPath } from '../../../server/http/urls';

describe('mountPath', () => {
  it('gives a configured prefix exactly one leading and one trailing slash, whatever was written', () => {
    for (const written of ['api-auth', 'api-auth/', '/api-auth', '/api-auth/', '//api-auth//'])
      expect(mountPath(written)).to.equal('/api-auth/');
    expect(mountPath('auth/token/')).to.equal('/auth/token/');
  });

  it('mounts an empty prefix at the root', () => {
    expect(mountPath('')).to.equal('/');
    expect(mountPath('/')).to.equal('/');
  });
});
