import { sql, type RawBuilder, type SqlBool } from 'kysely';

/** Filters and paging shared by the repositories' list queries. */

export interface Page {
  /** 1-based page number */
  num: number;
  size: number;
}

/** Which dictionary words a list shows (personal and shared dictionaries alike). */
export interface WordFilter {
  type?: number;
  /** a LIKE pattern (escaped with a backslash) that the word or its correction matches */
  like?: string;
}

/** The row's word or its correction matches the LIKE pattern (dictionary tables all name them so). */
export const wordOrCorrectionLike = (like: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`(word like ${like} escape '\\' or correct like ${like} escape '\\')`;

/** The offset of a 1-based page. */
export const offsetOf = (page: Page) => (page.num - 1) * page.size;
