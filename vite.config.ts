import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { lingui } from '@lingui/vite-plugin';

// One config for the SPA build and for every test project (STACK.md: vitest projects live here).
export default defineConfig({
  base: '/workbench/',
  plugins: [
    // Babel runs only where Lingui's macros are (the views): the server, the engine and the tests need only Vite's
    // own transform, and Babel over every file was most of the test run's transform time.
    react({ include: /\/src\/ui\/.*\.tsx?$/, babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }),
    lingui(),
  ],
  build: { outDir: 'dist/workbench', emptyOutDir: true, chunkSizeWarningLimit: 1500, manifest: true },
  server: {
    proxy: {
      // `npm run dev`: the API server listens on 3000, Vite serves the SPA with hot reload.
      '^/(user|misscut|dict|enterprise|enterprise-dic|pay|proofread|gpt|wizard|crm|api|v2|health|ws)(/|$)': {
        target: 'http://127.0.0.1:3000',
        ws: true,
      },
      '/workbench/config.json': 'http://127.0.0.1:3000',
    },
  },
  test: {
    // vitest's default is one worker per core but one; on a 2-core machine that ran every file in turn, although
    // most of them wait on sockets, child processes and PostgreSQL rather than compute.
    maxWorkers: 3,
    // The files keep the workers busy on both cores; V8's parallel GC threads then only add to the CPU the run
    // needs (about a tenth of the node files' CPU, measured), so each worker collects on its own thread.
    execArgv: ['--single-threaded-gc'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/{engine,server,api,machines,contract,build}/**/*.test.{ts,tsx}'],
          globalSetup: ['tests/server/pg-global-setup.ts'],
          testTimeout: 30_000,
          // Files of a worker share their modules (the server, the engine, fastify's schemas are imported once
          // per worker, not once per file): each file builds its own app, data directory and database.
          isolate: false,
          // The checking pool is one per process, started with the config of an app built before it, so the fault
          // marker the proofreading test relies on is in every file's environment before any app or pool exists.
          // Scrypt at the production cost is 35 ms of CPU per password set or tried, and the files make hundreds of
          // accounts: they hash at a sixteenth of it (tests/server/accounts.test.ts holds the default).
          // PUBLIC_URL: the browser tests' setup gives its server one in this process's environment, which the
          // workers would inherit; these files expect none unless they set it (empty counts as unset).
          env: { CHECKER_FAULT_MARKER: '§故障注入§', PASSWORD_HASH_COST: '10', PUBLIC_URL: '' },
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          // happy-dom, not jsdom: the same files passed in 44 CPU-seconds against 71 (23 s against 37 s on two cores);
          // what only a real browser shows is checked in Chromium (the e2e project)
          environment: 'happy-dom',
          setupFiles: ['tests/dom/catalogs-loaded.ts', 'tests/dom/fresh-state.ts'],
          isolate: false,
          include: ['tests/dom/**/*.test.{ts,tsx}'],
          testTimeout: 30_000,
          // as in the node files: no PUBLIC_URL inherited from the browser tests' server
          env: { PUBLIC_URL: '' },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          setupFiles: ['tests/e2e/spa-ready.ts'],
          // the files share playwright and the helpers per worker; each opens its own browser context
          isolate: false,
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // what a page shows after an event can take seconds while the other files load both cores; a poll that
          // gives up after vitest's default second fails a test that was right
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
