import type { SystemStyleObject } from '@chakra-ui/react';

/**
 * A table's look on a phone: each row a card of its cells, one under the other, each cell led by its column's name
 * (its `data-label`), so nothing hides beyond the right edge of the screen. Wider screens keep the table.
 */
export const STACK_ON_PHONE: SystemStyleObject = {
  mdDown: {
    // a table sizes itself to its content: as a block it takes the card's width
    display: 'block',
    width: 'full',
    whiteSpace: 'normal',
    '& thead': { display: 'none' },
    '& tbody, & tr, & td': { display: 'block' },
    '& tr': { borderBottomWidth: '1px', py: '2' },
    '& tr:last-of-type': { borderBottomWidth: '0' },
    '& td': { borderBottomWidth: '0', py: '1', textAlign: 'start', maxW: 'none', whiteSpace: 'normal' },
    '& td[data-label]': { display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' },
    // a long name shortens with an ellipsis within the card instead of widening it
    '& td > *, & td button, & td button > *': { minW: '0', maxW: '100%' },
    // a cell with nothing in it for this row (a member without actions) leaves no empty labelled line
    '& td[data-label]:empty, & td[data-label]:has(> :only-child:empty)': { display: 'none' },
    '& td[data-label]::before': {
      content: 'attr(data-label)',
      color: 'fg.muted',
      fontSize: 'xs',
      flexShrink: '0',
      minW: '6em',
    },
  },
};
