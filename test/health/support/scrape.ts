import { bearer } from '../../support/test-app';

/** One sample of a Prometheus text exposition: `name{label="value",...} number`. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Scrapes `url` (a `/metrics` endpoint) with the test's API key. */
export async function scrape(url: string): Promise<MetricSample[]> {
  const response = await fetch(url, { headers: bearer() });
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return parseExposition(await response.text());
}

/**
 * The value of the sample of `name` whose labels include `labels` (one only: it throws when two
 * match); undefined when there is none.
 */
export function valueOf(
  samples: MetricSample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const matching = samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (matching.length > 1) throw new Error(`${matching.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return matching[0]?.value;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function parseExposition(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    const match = SAMPLE_LINE.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map(([, key, value]) => [key, value]));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}
