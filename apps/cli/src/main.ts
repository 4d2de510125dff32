#!/usr/bin/env node
import { run } from './cli';
import { exitQuietlyOnClosedPipes, processIo } from './io';

exitQuietlyOnClosedPipes();

run(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 1;
  },
);
