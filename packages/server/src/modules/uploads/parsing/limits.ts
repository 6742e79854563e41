/** Bounds on what an uploaded file may make the parser do. */
export interface ParseLimits {
  maxRows: number;
  maxColumns: number;
  maxCellChars: number;
  maxDepth: number;
  /** Largest total size the entries of an XLSX archive may produce once inflated (counted as they are). */
  maxInflatedBytes: number;
  /** Largest ratio of an XLSX archive's inflated bytes to the compressed bytes they come from (beyond its first 16 MiB). */
  maxInflateRatio: number;
  /** Problems reported one by one; the rest are counted in the summary. */
  maxProblems: number;
}

export const DEFAULT_LIMITS: ParseLimits = {
  maxRows: 1_000_000,
  maxColumns: 1_000,
  maxCellChars: 1024 * 1024,
  maxDepth: 64,
  maxInflatedBytes: 256 * 1024 * 1024,
  maxInflateRatio: 100,
  maxProblems: 100,
};

/** A file the parser refuses, with the message the upload's log shows. */
export class ParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ParseError';
  }
}
