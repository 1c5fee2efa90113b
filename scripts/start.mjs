// `npm start`: build the SPA when it is missing or older than its sources, then run the server.
import { buildSpa, needsBuild } from './spa-build.mjs';

if (needsBuild()) {
  console.log('Building the workbench front end (vite build)…');
  try {
    buildSpa();
  } catch {
    console.error('The front-end build failed; see the messages above.');
    process.exit(1);
  }
}

// The supervisor runs the server and restarts it after a crash (scripts/supervise.mjs).
await import('./supervise.mjs');
