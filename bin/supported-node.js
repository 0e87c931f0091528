'use strict';
/**
 * Whether this Node can run Switchboard, checked before anything that needs a newer one is loaded.
 * Plain CommonJS, loaded first, so that an old Node gets as far as saying so.
 */

/** `major.minor.patch` as numbers. */
function versionOf(text) {
  return text
    .replace(/^[\^v]/, '')
    .split('.')
    .map(Number);
}

function atLeast(version, floor) {
  for (let i = 0; i < 3; i++) if (version[i] !== floor[i]) return version[i] > floor[i];
  return true;
}

/**
 * Why Node `found` (at `execPath`) cannot run Switchboard, whose package.json `engines` are caret
 * ranges (`^22.15.0 || ^24.0.0`): it is within none of them and older than the newest. Undefined
 * when it can: within one, or newer than all (not yet tested, but not refused).
 */
function olderNodeProblem(found, engines, execPath) {
  const version = versionOf(found);
  const lines = engines.split('||').map((range) => versionOf(range.trim()));
  const within = lines.some((floor) => version[0] === floor[0] && atLeast(version, floor));
  const newer = lines.every((floor) => version[0] > floor[0]);
  if (within || newer) return undefined;
  return `Switchboard needs Node.js ${engines} (package.json engines); this is Node.js ${found} (${execPath}). Install a supported Node.js, or put one first in PATH.`;
}

module.exports = { olderNodeProblem };
