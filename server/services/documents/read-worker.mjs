// Worker bootstrap in plain JavaScript (like the checker's): registers tsx, then reads one document.
import { register } from 'tsx/esm/api';

register();
await import('./read-worker-body.ts');
