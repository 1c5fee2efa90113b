/** engine/tools/explain.ts: the findings of a sentence and the candidates that fell short, for engine work. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('explain tool', () => {
  it('prints the findings, the segmentation and the non-word candidates with their scores', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'engine/tools/explain.ts', '他做事总是一丝不狗。'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/狗 -> 苟 {2}\[1\]/);
    expect(run.stdout).toContain('segmentation: ');
    expect(run.stdout).toMatch(/sub \S+ 一丝不狗 -> 一丝不苟 {2}g1 [\d.-]+ {2}g2 [\d.-]+ {2}score \d/);
  });
  it('says how it is used when given no sentence', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'engine/tools/explain.ts'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage:');
  });
});
