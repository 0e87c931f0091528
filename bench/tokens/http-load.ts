/**
 * The HTTP load: one JSON-RPC call per credential of the mix, `connections` requests in flight on
 * keep-alive connections (undici), every answer's status compared with the one its credential
 * must get.
 */
import { Pool } from 'undici';
import { percentile } from '../a2a/closed-loop';
import type { Credential } from './credentials';

export interface HttpLoadResult {
  requests: number;
  seconds: number;
  /** Answers by HTTP status; 0 counts transport errors. */
  byStatus: Map<number, number>;
  /** Answers whose status is not the one their credential must get, by credential and status. */
  mismatches: Map<string, number>;
  p50Ms: number;
  p99Ms: number;
}

/** POSTs `body` (JSON-RPC) to `path` once per credential of `sequence`. */
export async function sendAll(
  baseUrl: string,
  path: string,
  body: string,
  sequence: Credential[],
  connections: number,
): Promise<HttpLoadResult> {
  const pool = new Pool(baseUrl, { connections });
  const latencies: number[] = [];
  const byStatus = new Map<number, number>();
  const mismatches = new Map<string, number>();
  const count = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
  let next = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next < sequence.length) {
          const credential = sequence[next++];
          const before = performance.now();
          let status = 0;
          try {
            const response = await pool.request({
              path,
              method: 'POST',
              body,
              headers: {
                authorization: credential.authorization,
                'content-type': 'application/json',
                'a2a-version': '1.0',
              },
            });
            await response.body.dump();
            status = response.statusCode;
          } catch {
            // A transport error: counted as status 0, which no credential expects.
          }
          latencies.push(performance.now() - before);
          count(byStatus, status);
          if (status !== credential.expected)
            count(mismatches, `${credential.label}: expected ${credential.expected}, got ${status}`);
        }
      }),
    );
  } finally {
    await pool.close();
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: sequence.length,
    seconds,
    byStatus,
    mismatches,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}
