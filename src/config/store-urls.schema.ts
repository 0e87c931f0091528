import { z } from 'zod';

/**
 * A store's connection URL, refused at boot unless it parses with one of `protocols`. The message
 * never repeats the value: it may carry a password.
 */
function connectionUrlSchema(protocols: string[], example: string) {
  return z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `must be a ${protocols.map((protocol) => `${protocol}//`).join(' or ')} URL, e.g. ${example}`);
}

export const databaseUrlSchema = connectionUrlSchema(['postgresql:', 'postgres:'], 'postgresql://user:password@127.0.0.1:5432/switchboard');

export const redisUrlSchema = connectionUrlSchema(['redis:', 'rediss:'], 'redis://127.0.0.1:6379');
