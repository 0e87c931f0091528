/**
 * The functions a V8 CPU profile (`node --cpu-prof`) spent most time in, by self time and grouped
 * by package (or by file for the project's own code), to see where a benchmark's CPU goes.
 * Usage: ts-node --transpile-only bench/cpu-profile-summary.ts <file.cpuprofile> [--top 30]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** `node_modules/@scope/name` or `node_modules/name` for dependencies, the path under the repo otherwise. */
function owner(url: string): string {
  const inModules = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1];
  if (!url) return '(native / V8)';
  if (url.startsWith('node:')) return 'node core';
  return url.replace(/^file:\/\//, '').replace(/^.*\/dist\//, 'dist/');
}

function main(): void {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '30' } },
  });
  const [file] = positionals;
  if (!file) throw new Error('usage: cpu-profile-summary <file.cpuprofile> [--top N]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = [...selfUs.values()].reduce((sum, us) => sum + us, 0);
  const idleUs = [...selfUs]
    .filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)')
    .reduce((sum, [, us]) => sum + us, 0);
  const functions = new Map<string, number>();
  const owners = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const where = owner(url);
    functions.set(
      `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`,
      (functions.get(`${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`) ?? 0) + us,
    );
    owners.set(where, (owners.get(where) ?? 0) + us);
  }
  const busy = total - idleUs;
  const line = (name: string, us: number) =>
    `${((100 * us) / busy).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`;
  const top = Number(values.top);
  console.log(
    `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (${((100 * busy) / total).toFixed(0)}%)`,
  );
  console.log('\nby package or file (self time, share of busy time):');
  for (const [name, us] of [...owners].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(line(name, us));
  console.log('\nby function:');
  for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(line(name, us));
}

main();
