// GET /openapi.json under Redocly's linter (the engine of `redocly lint`), its recommended rules but four the
// contract overrides: no error, no warning.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { expect } from 'chai';
import { fetchDocument } from './support';

describe('GET /openapi.json under redocly lint (recommended)', () => {
  it('has no problem of any severity', async () => {
    const source = JSON.stringify(await fetchDocument());
    const config = await createConfig({
      extends: ['recommended'],
      rules: {
        // The contract's paths end in a slash (/snippets/, /snippets/<pk>/), as Django's do.
        'no-path-trailing-slash': 'off',
        // The probes have no client error; the logout form's POST answers a redirect (302), as Django's does.
        'operation-4xx-response': 'off',
        'operation-2xx-response': 'off',
        // Error405 documents the answer every path gives to a method it lacks: no operation, so nothing refers to it.
        'no-unused-components': 'off',
      },
    });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const listed = problems.map(
      (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`,
    );
    expect(listed).to.deep.equal([]);
  });
});
