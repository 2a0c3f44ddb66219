/** Replaces the `<!-- NAME:start/end -->` section of a Markdown file (see write-doc-section.mjs). */
export function writeDocSection(file: string, name: string, section: string): Promise<void>;
