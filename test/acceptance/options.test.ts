// OPTIONS: DRF-style metadata; actions only for a requester allowed to write; choices sorted.
import { expect } from 'chai';
import { resetDatabase, makeUser } from '../support/db';
import { api, basic } from '../support/http';

const sorted = (values: string[]) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('OPTIONS', () => {
  let id: number;
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    await makeUser('bob');
    id = (await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'x' }).expect(201)).body.id;
  });

  it('/snippets/ anonymous responds 200 without actions', async () => {
    const res = await api().options('/snippets/').expect(200);
    expect(res.body).to.deep.equal({
      name: 'Snippet List',
      description: '',
      renders: ['application/json', 'text/html'],
      parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
    });
  });

  it('/snippets/ authenticated offers POST with the fields and sorted choices', async () => {
    const res = await api().options('/snippets/').set('Authorization', basic('alice')).expect(200);
    const post = res.body.actions.POST;
    expect(Object.keys(post)).to.deep.equal(['id', 'owner', 'title', 'code', 'linenos', 'language', 'style']);
    expect(post.title).to.deep.equal({
      type: 'string',
      required: false,
      read_only: false,
      label: 'Title',
      max_length: 100,
    });
    expect(post.code).to.include({ type: 'string', required: true });
    const languages = post.language.choices.map((c: { value: string }) => c.value);
    const styles = post.style.choices.map((c: { value: string }) => c.value);
    expect(languages).to.include.members(['python', 'c', 'javascript']);
    expect(styles).to.include.members(['friendly', 'monokai']);
    expect(languages).to.deep.equal(sorted(languages));
    expect(styles).to.deep.equal(sorted(styles));
  });

  it('/snippets/<pk>/ offers PUT to the owner only', async () => {
    expect(
      (await api().options(`/snippets/${id}/`).set('Authorization', basic('alice')).expect(200)).body.actions,
    ).to.have.keys(['PUT']);
    expect(
      (await api().options(`/snippets/${id}/`).set('Authorization', basic('bob')).expect(200)).body,
    ).not.to.have.property('actions');
    expect((await api().options(`/snippets/${id}/`).expect(200)).body).not.to.have.property('actions');
  });

  it('/users/ responds 200 with its name and no actions', async () => {
    const res = await api().options('/users/').set('Authorization', basic('alice')).expect(200);
    expect(res.body.name).to.equal('User List');
    expect(res.body).not.to.have.property('actions');
  });
});
