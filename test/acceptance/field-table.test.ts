// "A new field is a table entry and a migration" (src/schemas/snippet-table.ts): every writable field of the table,
// whatever it is, goes through a create, a read, an update, the history and a restore. Driven by the table, so a field
// added there is covered here without a line of this file changing, and a hand-kept list of columns that misses it fails.
import { expect } from 'chai';
import { SNIPPET_TABLE } from '../../src/schemas/snippet-table';
import { fieldsOf, isRequired, isWritable, type FieldSpec } from '../../src/schemas/table';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';

const as = { Authorization: basic('alice') };

/** A value of the field other than its default, `round` telling two values apart. */
function valueOf(name: string, field: FieldSpec, round: number): unknown {
  switch (field.kind) {
    case 'boolean':
      return round % 2 === 1 ? !field.default : field.default;
    case 'choice': {
      const others = field.choices.list.filter((c) => c.value !== field.default);
      return others[round]!.value;
    }
    case 'string':
    case 'text':
      return `${name} ${round}`;
    default:
      throw new Error(`no test value for a ${field.kind} field`);
  }
}

const WRITABLE = fieldsOf(SNIPPET_TABLE).filter(([, field]) => isWritable(field));
const bodyOf = (round: number) =>
  Object.fromEntries(WRITABLE.map(([name, field]) => [name, valueOf(name, field, round)]));

describe('every writable field of the snippet table', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it('round-trips through POST, GET, PUT, the revisions and a restore', async () => {
    const first = bodyOf(1);
    const second = bodyOf(2);
    const created = await api().post('/snippets/').set(as).send(first).expect(201);
    expect(created.body).to.include(first);
    const id = created.body.id as number;
    expect((await api().get(`/snippets/${id}/`).expect(200)).body).to.include(first);
    expect((await api().put(`/snippets/${id}/`).set(as).send(second).expect(200)).body).to.include(second);
    expect((await api().get(`/snippets/${id}/`).expect(200)).body).to.include(second);
    expect((await api().get(`/snippets/${id}/revisions/1/`).expect(200)).body).to.include(first);
    expect((await api().get(`/snippets/${id}/revisions/2/`).expect(200)).body).to.include(second);
    await api().post(`/snippets/${id}/revisions/1/restore/`).set(as).expect(200);
    expect((await api().get(`/snippets/${id}/`).expect(200)).body).to.include(first);
    expect((await api().get(`/snippets/${id}/revisions/3/`).expect(200)).body).to.include(first);
  });

  it('keeps a field an update leaves out', async () => {
    const first = bodyOf(1);
    const id = (await api().post('/snippets/').set(as).send(first).expect(201)).body.id as number;
    for (const [name] of WRITABLE.filter(([, field]) => !isRequired(field))) {
      const { [name]: _left, ...rest } = bodyOf(2);
      await api().put(`/snippets/${id}/`).set(as).send(rest).expect(200);
      expect((await api().get(`/snippets/${id}/`).expect(200)).body[name]).to.deep.equal(first[name]);
      await api().put(`/snippets/${id}/`).set(as).send(first).expect(200);
    }
  });
});
