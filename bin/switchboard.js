#!/usr/bin/env node
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const main = join(__dirname, '../dist/cli/main.js');
if (!existsSync(main)) {
  process.stderr.write(`switchboard is not built (no ${main}): run \`npm run build\` in ${join(__dirname, '..')}.\n`);
  process.exit(1);
}
require(main);
