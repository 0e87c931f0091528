#!/usr/bin/env node
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { olderNodeProblem } = require('./supported-node');

/** EX_CONFIG (sysexits.h), as for any setting to change before starting again. */
const EXIT_CONFIG = 78;

const olderNode = olderNodeProblem(process.versions.node, require('../package.json').engines.node, process.execPath);
if (olderNode) {
  process.stderr.write(`${olderNode}\n`);
  process.exit(EXIT_CONFIG);
}

const main = join(__dirname, '../dist/cli/main.js');
if (!existsSync(main)) {
  process.stderr.write(`switchboard is not built (no ${main}): run \`npm run build\` in ${join(__dirname, '..')}.\n`);
  process.exit(1);
}
require(main);
