/**
 * `.env.example` ships values like `replace-with-a-long-random-key`: copied as they are, they would
 * be secrets anyone can read. Every secret the config takes refuses them, with the way to a real one.
 */
const PLACEHOLDER_PREFIX = 'replace-with-';

export const PLACEHOLDER_SECRET_ADVICE =
  'is a placeholder ("replace-with-...") copied from .env.example; put a real secret there: ' +
  '`sh docker/make-env.sh --force` writes .env with random ones, `openssl rand -hex 32` makes one';

export function isPlaceholderSecret(value: string): boolean {
  return value.startsWith(PLACEHOLDER_PREFIX);
}
