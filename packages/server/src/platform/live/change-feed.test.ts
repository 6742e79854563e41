import { describe, expect, it } from 'vitest';
import { noteAbout } from './change-feed.ts';

describe('noteAbout', () => {
  it('answers the table and id of a notification about one of the tables asked for', () => {
    expect(noteAbout('{"t": "sessions", "id": "s1"}', ['sessions', 'users'])).toEqual({ t: 'sessions', id: 's1' });
    expect(noteAbout('{"t": "users", "id": "u1"}', ['sessions', 'users'])).toEqual({ t: 'users', id: 'u1' });
  });

  it('passes over a notification about another table, even one whose rows name a table asked for', () => {
    expect(noteAbout('{"t": "logs", "op": "insert", "rows": [{"id": 1}]}', ['folders'])).toBeUndefined();
    const line = JSON.stringify({ t: 'logs', op: 'insert', rows: [{ id: 2, message: 'the "folders" of a run' }] });
    expect(noteAbout(line, ['folders'])).toBeUndefined();
    expect(noteAbout('{"t": "folders", ', ['folders'])).toBeUndefined();
  });
});
