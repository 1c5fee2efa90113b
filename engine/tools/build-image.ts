/**
 * npm run engine:image — makes sure the engine's precompiled lexicons (engine/.image, see engine/image.ts) match
 * the code and data, building them when not, and prints where they came from and how long loading took.
 */
import { loadEngine } from '../index';

const { loadMs, image, source } = loadEngine();
console.log(
  `engine image: ${(image.byteLength / 1048576).toFixed(1)} MB, ` +
    `${source === 'built' ? 'built' : 'up to date'}, ${loadMs} ms`,
);
