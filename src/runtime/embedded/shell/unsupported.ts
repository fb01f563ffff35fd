// The signal that a shell search command met something it does not implement (a flag, a pattern construct): the
// command then hands the whole invocation to just-bash's own implementation instead of guessing.

export class Unsupported extends Error {
  constructor(what: string) {
    super(`not handled by Conch's search engine: ${what}`);
  }
}
