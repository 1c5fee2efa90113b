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
