// Worker bootstrap in plain JavaScript: registers tsx so the TypeScript engine loads whatever started the
// parent (tsx, vitest, node --import tsx), then runs the worker body.
import { register } from 'tsx/esm/api';

register();
await import('./worker-body.ts');
