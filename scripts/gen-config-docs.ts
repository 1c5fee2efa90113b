// `npm run gen:config`: writes the README's configuration table from the server's ENV_SCHEMA (server/config.ts),
// between the config:start and config:end markers. tests/server/config.test.ts fails when the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { configTable } from '../server/config';

const START = '<!-- config:start -->';
const END = '<!-- config:end -->';
const readme = readFileSync('README.md', 'utf8');
const a = readme.indexOf(START);
const b = readme.indexOf(END);
if (a < 0 || b < a) throw new Error(`README.md has no ${START} … ${END} section`);
writeFileSync('README.md', `${readme.slice(0, a + START.length)}\n${configTable()}\n${readme.slice(b)}`);
console.log('README.md configuration table written');
