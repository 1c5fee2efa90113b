// The proofreading editor: a plain textarea (fast with 100,000 characters: the browser owns typing,
// wrapping and scrolling) over a backdrop that repeats the text with the findings marked. The backdrop
// uses the same font and wrapping, scrolls with the textarea and is rendered from deferred values, so
// typing never waits for the highlights.
import {
  forwardRef,
  memo,
  useCallback,
  useDeferredValue,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  type ReactNode,
} from 'react';
import { Box } from '@chakra-ui/react';
import type { Finding } from '../../../machines/proofreadJob';
import { paletteOf } from '../../findings/categories';
import { Verbatim } from '../../layout/Verbatim';

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

/** One line of the backdrop; `marks` is "start,end,palette,selected;..." relative to the line. */
const Line = memo(function Line({ index, text, marks }: { index: number; text: string; marks: string }) {
  // each line is its own block: typing re-lays out one line, not the whole document
  if (!marks) return <div data-line={index}>{text || '\u200b'}</div>;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const spec of marks.split(';')) {
    const [s, e, palette, selected] = spec.split(',');
    const start = Number(s);
    const end = Number(e);
    if (start < at || end > text.length) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(
      <mark
        key={start}
        data-rel={start}
        style={{
          color: 'transparent',
          borderRadius: '2px',
          background: `var(--chakra-colors-${palette}-${selected === '1' ? 'muted' : 'subtle'})`,
          boxShadow: `inset 0 -2px 0 var(--chakra-colors-${palette}-solid)`,
          outline: selected === '1' ? `2px solid var(--chakra-colors-${palette}-solid)` : undefined,
        }}
      >
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  parts.push(text.slice(at));
  return <div data-line={index}>{parts}</div>;
});

// Line by line, each line memoised on its text and its marks (offsets relative to the line), so a
// keystroke re-renders one line, not a 100,000-character document with thousands of marks.
const Backdrop = memo(function Backdrop({
  text,
  findings,
  selectedId,
}: {
  text: string;
  findings: Finding[];
  selectedId: string | null;
}) {
  const lines: ReactNode[] = [];
  let start = 0;
  let k = 0;
  for (let i = 0; ; i++) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    let marks = '';
    while (k < findings.length && findings[k].start < start) k++;
    while (k < findings.length && findings[k].end <= end) {
      const f = findings[k];
      // relative offsets only: a line after an edit keeps its props and is not rendered again
      marks +=
        `${marks ? ';' : ''}${f.start - start},${f.end - start},` +
        `${paletteOf(f.category)},${f.id === selectedId ? 1 : 0}`;
      k++;
    }
    lines.push(<Line key={i} index={i} text={text.slice(start, end)} marks={marks} />);
    if (nl === -1) break;
    start = nl + 1;
  }
  return <>{lines}</>;
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
      const lineStart = el.value.lastIndexOf('\n', f.start - 1) + 1;
      let line = 0;
      for (let i = el.value.indexOf('\n'); i !== -1 && i < lineStart; i = el.value.indexOf('\n', i + 1)) line++;
      const mark = back.current?.querySelector(
        `[data-line="${line}"] mark[data-rel="${f.start - lineStart}"]`,
      ) as HTMLElement | null;
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
  // the backdrop may render after the textarea scrolled (it follows at low priority): align it again
  useLayoutEffect(syncScroll, [deferredText, deferredFindings, consistent, syncScroll]);

  return (
    <Box
      position="relative"
      h={{ base: '60vh', lg: 'calc(100vh - 290px)' }}
      minH="320px"
      bg="panel"
      borderWidth="1px"
      borderRadius="xl"
      overflow="hidden"
    >
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
        <Verbatim>
          <Backdrop text={deferredText} findings={consistent ? deferredFindings : []} selectedId={selectedId} />
        </Verbatim>
      </Box>
      <textarea
        ref={area}
        aria-label={label}
        data-testid="proofread-editor"
        translate="no"
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
