// The OpenID Connect sign-in's pages in the OpenAPI document: there with OIDC_ISSUER, as they are served, and absent
// without it (the contract's document unchanged).
import { expect } from 'chai';
import { buildOpenApiDocument } from '../../server/openapi/document';
import { testConfig } from '../support/config';
import { api } from '../support/http';

describe('OpenAPI: the OpenID Connect sign-in pages', () => {
  it('are documented with OIDC_ISSUER set: the login (302 to the provider) and the callback', () => {
    const paths = buildOpenApiDocument(
      testConfig({ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' }),
    ).paths!;
    expect(paths['/api-auth/oidc/login/']?.get?.operationId).to.equal('oidc-login');
    expect(Object.keys(paths['/api-auth/oidc/login/']!.get!.responses!)).to.include.members(['302', '503']);
    expect(paths['/api-auth/oidc/callback/']?.get?.operationId).to.equal('oidc-callback');
    expect(Object.keys(paths['/api-auth/oidc/callback/']!.get!.responses!)).to.include.members(['302', '400', '403']);
  });

  it('are absent without it, as from /openapi.json by default, where /tokens/ is', async () => {
    expect(Object.keys(buildOpenApiDocument().paths!).filter((p) => p.includes('oidc'))).to.deep.equal([]);
    const served = (await api().get('/openapi.json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(served.paths).filter((p) => p.includes('oidc'))).to.deep.equal([]);
    expect(served.paths).to.have.property('/tokens/');
    expect(served.paths).to.have.property('/tokens/{id}/');
  });
});
