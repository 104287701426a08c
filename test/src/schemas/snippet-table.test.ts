// The field table is the snippet's one description: every shape, description and column list shows exactly its fields.
import { expect } from 'chai';
import { columnName } from '../../../src/models/columns';
import { Snippet, SnippetFields } from '../../../src/snippets/schema';
import { SNIPPET_TABLE } from '../../../src/schemas/snippet-table';
import { fieldsOf, isStored, isWritable } from '../../../src/schemas/table';
import { buildOpenApiDocument } from '../../../server/openapi/document';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { testStore } from '../../support/runtime';

const FIELDS = fieldsOf(SNIPPET_TABLE);
const ALL = FIELDS.map(([name]) => name);
const WRITABLE = FIELDS.filter(([, field]) => isWritable(field)).map(([name]) => name);
const STORED = FIELDS.filter(([, field]) => isStored(field)).map(([name]) => name);
const DEFAULTS = Object.fromEntries(
  FIELDS.flatMap(([name, field]) => ('default' in field && field.default !== undefined ? [[name, field.default]] : [])),
);

describe('the snippet field table', () => {
  let id: number;
  before(async () => {
    await resetDatabase();
    await makeUser('alice');
    id = (await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'x' }).expect(201)).body.id;
  });

  it("lists the spec's representation keys, in the spec's order", () => {
    expect(ALL).to.deep.equal(['id', 'owner', 'title', 'code', 'linenos', 'language', 'style']);
  });

  it('is the representation: its schema and a response have exactly its keys, in its order', async () => {
    expect(Object.keys(Snippet.shape)).to.deep.equal(ALL);
    expect(Object.keys((await api().get(`/snippets/${id}/`).expect(200)).body)).to.deep.equal(ALL);
  });

  it('is the input: the schema takes exactly its writable fields', () => {
    expect(Object.keys(SnippetFields.shape)).to.deep.equal(WRITABLE);
  });

  it("gives a snippet created with code only the table's defaults", async () => {
    const body = (await api().get(`/snippets/${id}/`).expect(200)).body;
    expect(body).to.include(DEFAULTS);
  });

  it('is what OPTIONS describes: every field with its label, read-only ones marked', async () => {
    const post = (await api().options('/snippets/').set('Authorization', basic('alice')).expect(200)).body.actions.POST;
    expect(Object.keys(post)).to.deep.equal(ALL);
    for (const [name, field] of FIELDS)
      expect(post[name], name).to.include({ label: field.label, read_only: !isWritable(field) });
  });

  it('is the OpenAPI input: its writable fields, with their defaults and descriptions', () => {
    const input = buildOpenApiDocument().components!.schemas!.SnippetInput as {
      properties: Record<string, { default?: unknown; description?: string }>;
    };
    expect(Object.keys(input.properties)).to.deep.equal(WRITABLE);
    for (const [name, field] of FIELDS)
      if (isWritable(field)) expect(input.properties[name]!.description, name).to.equal(field.description);
    for (const [name, value] of Object.entries(DEFAULTS)) expect(input.properties[name]!.default, name).to.equal(value);
  });

  it("is the browsable API's form: one field per writable field, in order", async () => {
    const page = await api()
      .get('/snippets/?format=api')
      .set('Accept', 'text/html')
      .set('Authorization', basic('alice'))
      .expect(200);
    const form = /<form id="create-form".*?<\/form>/s.exec(page.text)![0];
    expect([...form.matchAll(/<div class="field" data-field="([^"]+)">/g)].map((m) => m[1])).to.deep.equal(WRITABLE);
  });

  it("is the model's attributes, and each stored field has its column in the migrated tables, the history's too", async () => {
    const attributes = testStore().models.Snippet.getAttributes();
    for (const [name, field] of FIELDS) {
      if (!isStored(field)) continue;
      expect(attributes, name).to.have.property(name);
      expect(attributes[name as keyof typeof attributes]!.field, name).to.equal(columnName(name));
    }
    const qi = testStore().sequelize.getQueryInterface();
    const columns = Object.keys(await qi.describeTable('snippets'));
    expect(columns, 'a field of the table needs a migration that adds its column').to.include.members(
      STORED.map(columnName),
    );
    // Every save stores its writable fields in its revision too (src/store/snippets/columns.ts SAVED_NAMES).
    const kept = Object.keys(await qi.describeTable('snippet_revisions'));
    expect(kept, "a writable field's migration adds its column to snippet_revisions as well").to.include.members(
      WRITABLE.map(columnName),
    );
  });
});
