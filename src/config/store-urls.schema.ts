import { z } from 'zod';
import { isPlaceholderSecret, PLACEHOLDER_SECRET_ADVICE } from './placeholder-secret';

/**
 * A store's connection URL, refused at boot unless it parses with one of `protocols`. The message
 * never repeats the value: it may carry a password.
 */
function connectionUrlSchema(protocols: string[], example: string, passwordSource?: string) {
  return z
    .string()
    .refine(
      (value) => protocols.includes(parsed(value)?.protocol ?? ''),
      `must be a ${protocols.map((protocol) => `${protocol}//`).join(' or ')} URL, e.g. ${example}`,
    )
    .refine(
      (value) => !isPlaceholderSecret(parsed(value)?.password ?? ''),
      `its password${passwordSource ? ` (${passwordSource})` : ''} ${PLACEHOLDER_SECRET_ADVICE}`,
    );
}

function parsed(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

export const databaseUrlSchema = connectionUrlSchema(
  ['postgresql:', 'postgres:'],
  'postgresql://user:password@127.0.0.1:5432/switchboard',
  'POSTGRES_PASSWORD in .env under docker compose',
);

export const redisUrlSchema = connectionUrlSchema(['redis:', 'rediss:'], 'redis://127.0.0.1:6379');
