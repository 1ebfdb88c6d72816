// The CLI's two failures, kept as values until run.ts turns them into an exit status and one stderr line.

/** Exit status 2: the command line itself is wrong; usage follows on stderr. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Exit status 1: the site could not be reached, answered an error, or sent something unexpected. */
export class SiteError extends Error {
  override readonly name = 'SiteError';
  constructor(
    message: string,
    /** The HTTP status when the site answered one. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** A body of the wrong shape: not JSON, too deep or too large to parse, or outside its schema. run.ts names the URL. */
export class UnexpectedBody extends Error {
  override readonly name = 'UnexpectedBody';
}
