/**
 * One process of the decode benchmark (started by bench/decode-processes.ts as
 * `node --import tsx bench/decode-process.ts <lines> <rounds>`): measures the set of `lines` TextDelta
 * lines and prints its figures as JSON on stdout.
 */
import './node-gc.js';
import { argv } from 'node:process';
import { makeSet, measureSet } from './decode.bench.js';

const figures = await measureSet(makeSet(Number(argv[2])), Number(argv[3]));
process.stdout.write(JSON.stringify(figures));
