/** Command-line values shared by the benches. */

/** `raw` as a positive integer, or an error that names the option. */
export function positiveInteger(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer, got "${raw}"`);
  return value;
}
