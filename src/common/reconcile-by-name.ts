import { isDeepStrictEqual } from 'node:util';

/** What `reconcileByName` made of a new list: the values by name in its order, and those made and let go. */
export interface Reconciled<V> {
  values: Map<string, V>;
  made: V[];
  dropped: V[];
  /** The same values in the same order as before: nothing to apply. */
  unchanged: boolean;
}

/**
 * The values for a new list of named entries: an entry equal (deeply) to the previous list's entry
 * of its name keeps that entry's value; any other gets one `make`s. The values of removed and
 * changed entries are `dropped`, for their owner to stop.
 */
export function reconcileByName<T extends { name: string }, V>(
  previous: readonly T[],
  next: readonly T[],
  values: ReadonlyMap<string, V>,
  make: (entry: T) => V,
): Reconciled<V> {
  const before = new Map(previous.map((entry) => [entry.name, entry]));
  const made: V[] = [];
  const reconciled = new Map(
    next.map((entry) => {
      const kept = values.get(entry.name);
      if (kept !== undefined && isDeepStrictEqual(before.get(entry.name), entry)) return [entry.name, kept];
      const value = make(entry);
      made.push(value);
      return [entry.name, value];
    }),
  );
  const dropped = [...values].filter(([name, value]) => reconciled.get(name) !== value).map(([, value]) => value);
  const unchanged =
    made.length === 0 && dropped.length === 0 && [...reconciled.keys()].join() === [...values.keys()].join();
  return { values: reconciled, made, dropped, unchanged };
}
