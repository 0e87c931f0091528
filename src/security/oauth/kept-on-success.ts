/** Values got once per key and kept; a failed one is not kept, so the next ask tries again. */
export class KeptOnSuccess<T> {
  private readonly values = new Map<string, Promise<T>>();

  get(key: string, make: () => Promise<T>): Promise<T> {
    let value = this.values.get(key);
    if (!value) {
      value = make();
      value.catch(() => this.values.delete(key));
      this.values.set(key, value);
    }
    return value;
  }
}
