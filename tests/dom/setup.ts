// Screens are lazy chunks that vitest transforms on first use; on a busy 2-core machine that can take longer than
// testing-library's 1 s default: the first screen of a worker, shown while the static checks ran beside it, took 7 s.
import { configure } from '@testing-library/react';
configure({ asyncUtilTimeout: 10_000 });
