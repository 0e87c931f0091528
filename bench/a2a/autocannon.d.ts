/** The part of autocannon 9's API the A2A bench uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Called before each request is sent; returns the request to send. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    }

    /** One connection. Emits `headers` ({ statusCode }), `response`, and `mismatch` (body) when verifyBody fails. */
    type Client = EventEmitter;

    interface Options {
      /** Several URLs: the connections are spread round-robin over them. */
      url: string | string[];
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      requests?: Request[];
      /** Called with each response body; false counts a mismatch. */
      verifyBody?: (body: string) => boolean;
      setupClient?: (client: Client) => void;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }

    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      /** Connection errors. */
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      duration: number;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
