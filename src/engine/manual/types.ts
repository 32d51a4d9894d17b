// The manual as codegen bundles it (generated/manual.ts): every page with its metadata and exact Markdown,
// the top-level sections, and the precomputed search index, so nothing is read or indexed at run time.
import type { SearchIndex } from '../search/index.js';

export interface ManualPage {
  /** section/slug: the canonical lookup key. */
  target: string;
  /** Path inside the manual, e.g. 10-guides/connect-a-coding-agent.md. */
  path: string;
  section: string;
  slug: string;
  id: string;
  title: string;
  description: string;
  order: number;
  aliases: string[];
  /** The Markdown after the front matter, byte for byte. */
  content: string;
  /** True for reference pages generated from spec/. */
  generated: boolean;
}

export interface ManualRegion {
  name: string;
  /** The folder inside the manual, e.g. 10-guides. */
  dir: string;
  title: string;
  page_count: number;
}

export interface ManualBundle {
  pages: ManualPage[];
  regions: ManualRegion[];
  index: SearchIndex;
}
