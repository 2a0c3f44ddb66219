/**
 * Text as search compares it: NFKC-normalised (a composed "é" and "e" + combining accent, full-width and
 * ligature forms, are the same) and lower-cased by JavaScript's Unicode rules, the same on SQLite (whose
 * lower() folds ASCII letters only) and PostgreSQL. Applied to the stored text and to each search.
 */
export function searchFold(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** What an item's search matches: its title, summary and body text (the body's and pro tip's words, no markup). */
export function searchTextOf(title: string, summary: string, bodyText: string): string {
  return searchFold([title, summary, bodyText].join('\n'));
}
