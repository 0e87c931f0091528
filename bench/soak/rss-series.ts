/**
 * Each process's RSS sampled at a fixed interval over a long run, and what tells a leak from a
 * plateau: the level after the warm-up, at the end, and the least-squares slope after the warm-up.
 */
import { performance } from 'node:perf_hooks';
import { rssMb, type ServerProcess } from '../a2a/processes';

export interface RssSample {
  /** Seconds since sampling started. */
  atSecs: number;
  /** MB by process name (NaN once a process has gone). */
  rssMb: Map<string, number>;
}

export interface RssTrend {
  afterWarmUpMb: number;
  endMb: number;
  /** MB per minute over the samples from the warm-up on; NaN with fewer than two. */
  slopeMbPerMin: number;
}

/**
 * Samples now and every `intervalSecs` (calling `onSample` with each) until stopped, which takes a
 * last sample unless the interval's has just been taken (a load as long as a multiple of it).
 */
export function sampleRss(
  processes: ServerProcess[],
  intervalSecs: number,
  onSample: (sample: RssSample) => void,
): () => RssSample[] {
  const samples: RssSample[] = [];
  const started = performance.now();
  const sample = () => {
    const taken = {
      atSecs: (performance.now() - started) / 1000,
      rssMb: new Map(processes.map((p) => [p.name, rssMb(p.pid) ?? NaN])),
    };
    samples.push(taken);
    onSample(taken);
  };
  sample();
  const timer = setInterval(sample, intervalSecs * 1000);
  return () => {
    clearInterval(timer);
    if ((performance.now() - started) / 1000 - samples[samples.length - 1].atSecs > 1) sample();
    return samples;
  };
}

/** Least-squares slope of y over x; NaN with fewer than two distinct x. */
function slope(points: { x: number; y: number }[]): number {
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / points.length;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / points.length;
  const covariance = points.reduce((sum, p) => sum + (p.x - meanX) * (p.y - meanY), 0);
  const variance = points.reduce((sum, p) => sum + (p.x - meanX) ** 2, 0);
  return variance === 0 ? NaN : covariance / variance;
}

/** The trend of one process over the samples taken from `warmUpSecs` on (the last sample is always one). */
export function rssTrend(samples: RssSample[], processName: string, warmUpSecs: number): RssTrend {
  const lastSample = samples[samples.length - 1];
  const settled = samples.filter((s) => s.atSecs >= warmUpSecs || s === lastSample);
  const points = settled.map((s) => ({ x: s.atSecs / 60, y: s.rssMb.get(processName)! }));
  return { afterWarmUpMb: points[0].y, endMb: points[points.length - 1].y, slopeMbPerMin: slope(points) };
}
