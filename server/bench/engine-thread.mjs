// A thread of engine-limit.ts: registers tsx (a worker does not inherit the parent's loader), then runs it.
import { register } from 'tsx/esm/api';

register();
await import('./engine-limit.ts');
