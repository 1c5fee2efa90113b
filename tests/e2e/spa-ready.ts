// The global setup builds the SPA in the background so that the other projects' files need not wait for it; a
// browser test file starts once the build has ended (or builds it itself when run without that setup's build).
import { beforeAll } from 'vitest';
import { waitForSpaBuild } from '../../scripts/spa-build.mjs';

beforeAll(() => waitForSpaBuild(), 180_000);
