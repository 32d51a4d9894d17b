// A corpus of Markdown pages — the bundled manual or a project's map — as the discovery funnel reads it:
// pages with their metadata and exact Markdown, and the top-level regions (sections) they fall in.
import type { SearchIndex } from '../search/index.js';

export interface CorpusPage {
  /**
   * Lookup key, unique in the corpus: the page's path inside it, numeric prefixes dropped, without .md
   * (guides/connect); when another page already has that, the page's own path (corpus-names.ts).
   */
  target: string;
  /** Path inside the corpus, e.g. 10-guides/connect-a-coding-agent.md. */
  path: string;
  /** The region's name, or "" for a page at the corpus root. */
  section: string;
  slug: string;
  id: string;
  title: string;
  description: string;
  order: number;
  aliases: string[];
  /** false for pages kept out of the published manual; map search includes them. */
  publish: boolean;
  /** The Markdown after the front matter, byte for byte. */
  content: string;
  /** True for pages generated from spec/ rather than written by hand. */
  generated: boolean;
}

export interface CorpusRegion {
  /** The folder without its number prefix, or the folder itself when another region has that name. */
  name: string;
  /** The folder inside the corpus, e.g. 10-guides. */
  dir: string;
  title: string;
  description: string;
  page_count: number;
}

export interface Corpus {
  pages: CorpusPage[];
  regions: CorpusRegion[];
}

export interface IndexedCorpus extends Corpus {
  index: SearchIndex;
}

/** Something about a file or folder the corpus lists other than as written (see the kinds). */
export interface AssemblyProblem {
  /** front-matter: it could not be read, or a key the listing reads has the wrong type, and the page is listed
   * from its text; name-collision: a region or page could not have its usual name and is named by its path. */
  kind: 'front-matter' | 'name-collision';
  path: string;
  pointer: string;
  message: string;
}
