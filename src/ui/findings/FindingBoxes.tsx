// A box over each finding on a picture (a PDF page, an image): positioned in the picture's own units as shares of
// its size, so it stays in place at any zoom; a click selects the finding.
import { useLingui } from '@lingui/react/macro';
import { Box } from '@chakra-ui/react';
import type { Finding } from '../../machines/proofreadJob';
import { paletteOf } from './categories';

export function FindingBoxes<F extends Finding>(props: {
  findings: readonly F[];
  /** [x, y, width, height] of each line of a finding, in the units of `width` and `height` */
  boxesOf(f: F): number[][];
  width: number;
  height: number;
  selectedId: string | null;
  onSelect(f: F): void;
  testId: string;
}) {
  const { t } = useLingui();
  const { width, height, selectedId } = props;
  return (
    <>
      {props.findings.flatMap((f) =>
        props
          .boxesOf(f)
          .map(([x, y, w, h], r) => (
            <Box
              key={`${f.id}-${r}`}
              as="button"
              aria-label={t`问题：${f.original}`}
              data-finding={r === 0 ? f.id : undefined}
              data-testid={props.testId}
              data-selected={f.id === selectedId || undefined}
              position="absolute"
              left={`${(x / width) * 100}%`}
              top={`${(y / height) * 100}%`}
              w={`${(w / width) * 100}%`}
              h={`${(h / height) * 100}%`}
              borderWidth="2px"
              borderColor={`${paletteOf(f.category)}.solid`}
              bg={f.id === selectedId ? `${paletteOf(f.category)}.solid/20` : 'transparent'}
              borderRadius="sm"
              cursor="pointer"
              onClick={() => props.onSelect(f)}
            />
          )),
      )}
    </>
  );
}
