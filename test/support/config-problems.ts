import { ConfigError } from '../../src/config/config-error';

/** The problems a config load refused with (ConfigError), or none when `load` passed; any other error is thrown. */
export function configProblems(load: () => unknown): string[] {
  try {
    load();
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}
