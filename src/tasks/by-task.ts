/** Things this process keeps per task (watches of a signal), each removed by the function `add` returns. */
export class ByTask<T> {
  private readonly byTask = new Map<string, Set<T>>();

  add(taskId: string, item: T): () => void {
    const items = this.byTask.get(taskId) ?? new Set();
    items.add(item);
    this.byTask.set(taskId, items);
    return () => {
      items.delete(item);
      if (items.size === 0 && this.byTask.get(taskId) === items) this.byTask.delete(taskId);
    };
  }

  of(taskId: string): Iterable<T> {
    return this.byTask.get(taskId) ?? [];
  }

  taskIds(): string[] {
    return [...this.byTask.keys()];
  }
}
