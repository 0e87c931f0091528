import { reconcileByName } from './reconcile-by-name';

interface Entry {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

const made = (entry: Entry) => ({ entry });

describe('reconcileByName', () => {
  const previous: Entry[] = [
    { name: 'a', url: 'http://a', headers: { x: '1' } },
    { name: 'b', url: 'http://b' },
    { name: 'c', url: 'http://c' },
  ];
  const values = new Map(previous.map((entry) => [entry.name, made(entry)]));

  it('keeps the value of an entry equal to its previous one, makes one for an added or changed entry, and drops the rest', () => {
    const next: Entry[] = [
      { name: 'd', url: 'http://d' },
      { name: 'a', url: 'http://a', headers: { x: '1' } },
      { name: 'b', url: 'http://b2' },
    ];
    const result = reconcileByName(previous, next, values, made);
    expect([...result.values.keys()]).toEqual(['d', 'a', 'b']);
    expect(result.values.get('a')).toBe(values.get('a'));
    expect(result.made.map(({ entry }) => entry.name)).toEqual(['d', 'b']);
    expect(result.dropped).toEqual([values.get('b'), values.get('c')]);
    expect(result.unchanged).toBe(false);
  });

  it('compares nested values, not identity', () => {
    const copy = JSON.parse(JSON.stringify(previous)) as Entry[];
    const result = reconcileByName(previous, copy, values, made);
    expect(result.unchanged).toBe(true);
    const changed = reconcileByName(previous, [{ ...copy[0], headers: { x: '2' } }], values, made);
    expect(changed.made).toHaveLength(1);
    expect(changed.dropped).toHaveLength(3);
    expect(reconcileByName(previous, [...copy].reverse(), values, made).unchanged).toBe(false);
  });
});
