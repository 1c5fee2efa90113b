// Worker bootstrap in plain JavaScript (like the checker's): registers tsx, then serves heavy tasks.
import { register } from 'tsx/esm/api';

register();
await import('./worker-body.ts');
