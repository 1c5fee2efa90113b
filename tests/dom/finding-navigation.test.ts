// Moving between findings (Alt+↓/↑, j/k) and the selection after an accept or ignore, shared by the home
// screen and the document editor.
import { describe, expect, it } from 'vitest';
import { neighbourFinding, successorId } from '../../src/ui/findings/actions';

const a = { id: 'a' };
const b = { id: 'b' };
const c = { id: 'c' };

describe('finding navigation', () => {
  it('steps forward and back, wrapping around, from nothing selected to the first or last', () => {
    const list = [a, b, c];
    expect(neighbourFinding(list, null, 1)).toBe(a);
    expect(neighbourFinding(list, null, -1)).toBe(c);
    expect(neighbourFinding(list, a, 1)).toBe(b);
    expect(neighbourFinding(list, c, 1)).toBe(a);
    expect(neighbourFinding(list, a, -1)).toBe(c);
    // a selection that is no longer listed starts over
    expect(neighbourFinding(list, { id: 'gone' }, 1)).toBe(a);
    expect(neighbourFinding([], null, 1)).toBeUndefined();
  });

  it('selects the finding that took the handled one’s place, the last one at the end, none when all are gone', () => {
    expect(successorId([a, b, c], b, [a, c])).toBe('c');
    expect(successorId([a, b, c], c, [a, b])).toBe('b');
    expect(successorId([a, b, c], a, [])).toBeNull();
    expect(successorId([a, b], { id: 'x' }, [a, b])).toBeNull();
  });
});
