/** `api` serves HTTP (and may run workers in-process); `worker` only runs queue workers. */
export type ProcessRole = 'api' | 'worker';
