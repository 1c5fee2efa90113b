// Runs the server bundle made for the sources as they are (scripts/server-build.mjs) in this process, for a service
// manager that supervises it itself (deploy/workbench@.service). It never builds: the checkout may be read only, and
// a bundle older than its sources must not run, so without one it says to run `npm run build` and exits.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { serverEntry } from './server-build.mjs';

const entry = serverEntry();
if (!existsSync(entry)) {
  console.error(`No server bundle for these sources (${entry}): run \`npm run build\` first.`);
  process.exit(1);
}
await import(pathToFileURL(entry).href);
