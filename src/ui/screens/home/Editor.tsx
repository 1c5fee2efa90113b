// The proofreading editor: a plain textarea (fast with 100,000 characters: the browser owns typing,
// wrapping and scrolling) over a backdrop that repeats the text with the findings marked. The backdrop
// uses the same font and wrapping, scrolls with the textarea and is rendered from deferred values, so
// typing never waits for the highlights.
import { forwardRef, memo, useCallback, useDeferredValue, useImperativeHandle, useRef, type ReactNode } from 'react';
import { Box } from '@chakra-ui/react';
import type { Finding } from '../../../machines/proofreadJob';
import { paletteOf } from './categories';

export interface EditorHandle {
  select(finding: Finding): void;
  focus(): void;
}

interface EditorProps {
  text: string;
  findings: Finding[];
  selectedId: string | null;
  placeholder: string;
  label: string;
  onChange(text: string): void;
  onCaret(offset: number): void;
}

const FONT = {
  fontFamily: 'inherit',
  fontSize: '16px',
  lineHeight: '1.9',
  letterSpacing: '0.02em',
  padding: '16px 18px',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  wordBreak: 'break-word',
} as const;

const Backdrop = memo(function Backdrop({ text, findings, selectedId }: { text: string; findings: Finding[]; selectedId: string | null }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const f of findings) {
    if (f.start < at || f.end > text.length) continue;
    if (f.start > at) parts.push(text.slice(at, f.start));
    const palette = paletteOf(f.category);
    const selected = f.id === selectedId;
    parts.push(
      <mark
        key={f.id}
        data-finding={f.id}
        style={{
          color: 'transparent',
          borderRadius: '2px',
          background: `var(--chakra-colors-${palette}-${selected ? 'muted' : 'subtle'})`,
          boxShadow: `inset 0 -2px 0 var(--chakra-colors-${palette}-solid)`,
          outline: selected ? `2px solid var(--chakra-colors-${palette}-solid)` : undefined,
        }}
      >
        {text.slice(f.start, f.end)}
      </mark>,
    );
    at = f.end;
  }
  parts.push(text.slice(at));
  // a trailing newline needs a character after it to take up its line
  parts.push('\u200b');
  return <>{parts}</>;
});

export const Editor = forwardRef<EditorHandle, EditorProps>(function Editor(
  { text, findings, selectedId, placeholder, label, onChange, onCaret },
  ref,
) {
  const area = useRef<HTMLTextAreaElement>(null);
  const back = useRef<HTMLDivElement>(null);
  const deferredText = useDeferredValue(text);
  const deferredFindings = useDeferredValue(findings);
  // while typing, the deferred findings may belong to the newer text only: show them when they match
  const consistent = deferredText === text;

  useImperativeHandle(ref, () => ({
    select(f) {
      const el = area.current;
      if (!el) return;
      el.focus({ preventScroll: true });
      el.setSelectionRange(f.start, f.end);
      const mark = back.current?.querySelector(`[data-finding="${CSS.escape(f.id)}"]`) as HTMLElement | null;
      if (mark) {
        const top = mark.offsetTop - el.clientHeight / 3;
        el.scrollTop = Math.max(0, top);
      }
    },
    focus() {
      area.current?.focus();
    },
  }));

  const syncScroll = useCallback(() => {
    if (back.current && area.current) back.current.scrollTop = area.current.scrollTop;
  }, []);

  return (
    <Box position="relative" h={{ base: '60vh', lg: 'calc(100vh - 290px)' }} minH="320px" bg="panel" borderWidth="1px" borderRadius="xl" overflow="hidden">
      <Box
        ref={back}
        aria-hidden
        position="absolute"
        inset="0"
        overflowY="scroll"
        pointerEvents="none"
        color="transparent"
        style={FONT}
        data-testid="editor-backdrop"
      >
        <Backdrop text={deferredText} findings={consistent ? deferredFindings : []} selectedId={selectedId} />
      </Box>
      <textarea
        ref={area}
        aria-label={label}
        data-testid="proofread-editor"
        value={text}
        placeholder={placeholder}
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
        onScroll={syncScroll}
        onSelect={(e) => onCaret((e.target as HTMLTextAreaElement).selectionStart)}
        style={{
          ...FONT,
          position: 'absolute',
          inset: 0,
          width: '100%',
          height: '100%',
          resize: 'none',
          border: 0,
          outline: 'none',
          background: 'transparent',
          color: 'inherit',
          overflowY: 'scroll',
        }}
      />
    </Box>
  );
});
