// The hyphen package ships no types; this is the one function the site uses.
declare module "hyphen/nl/index.js" {
  const dutch: {
    /** Inserts soft hyphens (or `hyphenChar`) at Dutch hyphenation points of words of `minWordLength` letters or more. */
    hyphenateSync(text: string, options?: { hyphenChar?: string; minWordLength?: number }): string;
  };
  export default dutch;
}
