// Telling traditional from simplified text, for the checks whose text comes without a language (OCR, PDF text).
import { describe, expect, it } from 'vitest';
import { checkLanguage, isTraditional } from '../../engine/script';

describe('the script of a text', () => {
  it('tells traditional text by the share of its characters that have a simplified form', () => {
    expect(isTraditional('會議強調，要進一步加強組織領導，確保各項工作任務按期完成。')).toBe(true);
    expect(isTraditional('請各單位於本月底前將有關材料報送辦公室。Email: a@b.hk')).toBe(true);
    // a surrogate pair among them does not throw the count off
    expect(isTraditional('𠮷這個字屬於擴展區，後面的字都是繁體。')).toBe(true);
  });

  it('keeps simplified text simplified, with the few characters both scripts share and none at all', () => {
    expect(isTraditional('会议强调，要进一步加强组织领导，确保各项工作任务按期完成。')).toBe(false);
    // 乾坤 and 著作 are simplified writing too
    expect(isTraditional('扭转乾坤的著作，在本月出版发行，欢迎各界人士踊跃订阅。')).toBe(false);
    expect(isTraditional('Hello, world. 2024-05-01')).toBe(false);
    expect(isTraditional('')).toBe(false);
    expect([
      checkLanguage('會議強調，要進一步加強組織領導。'),
      checkLanguage('会议强调，要进一步加强组织领导。'),
    ]).toEqual(['hk', 'cn']);
  });
});
