#!/usr/bin/env node
'use strict';
require('../dist/cli/main.js');
