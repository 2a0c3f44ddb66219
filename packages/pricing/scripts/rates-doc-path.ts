/** Where the generated rate document lives: the repository's docs/rates.md. */
export const RATES_DOC_PATH = new URL('../../../docs/rates.md', import.meta.url);
