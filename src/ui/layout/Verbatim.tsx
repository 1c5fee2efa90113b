import type { ReactNode } from 'react';

/**
 * The user's own words (a text, a file's name, a dictionary entry, a team's name) inside the page's language: marked
 * `translate="no"` so no translator rewrites them. A native span, since Chakra reads `translate` as the CSS property.
 */
export function Verbatim(props: { children: ReactNode }) {
  return <span translate="no">{props.children}</span>;
}
