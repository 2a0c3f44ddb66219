/**
 * The rules of content and client settings that need none of the importer's parsers: the staff tool checks a
 * prefix or a colour with these, and loads the importer (JSDOM, about a second of start-up) only for
 * `content import` and a logo's removal (thirtieth session: every staff command loaded it).
 */
import { unshownNote } from '../email-address.js';
import { shownText } from './shown-text.js';

/** A problem in a content folder, reported with the file it is in. */
export class ContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContentError';
  }
}

const HEX = /^#[0-9a-fA-F]{6}$/;
export const PREFIX = /^[a-z0-9][a-z0-9-]{0,39}$/;
const RESERVED_PREFIXES = new Set(['api', 'media', 'assets']);

/**
 * `prefix` quoted for a message, with a note naming the first character in it that shows nothing (a plain space
 * aside, which the quotes show): `"acme", which holds U+0085, …`. Quoted alone, `acme` + U+0085 or U+200B read as
 * the valid `acme` in the refusal (found by the twenty-ninth session's staff-tool probe).
 */
export function quotedPrefix(prefix: string): string {
  return `"${shownText(prefix)}"${unshownNote(prefix.replaceAll(' ', ''))}`;
}

/** Checks a client prefix (URL segment); returns a message or `undefined` when fine. */
export function prefixProblem(prefix: string): string | undefined {
  if (!PREFIX.test(prefix)) {
    const note = unshownNote(prefix.replaceAll(' ', '')) === '' ? '' : ',';
    return `The prefix ${quotedPrefix(prefix)}${note} must be 1–40 lower-case letters, digits or hyphens, starting with a letter or digit.`;
  }
  if (RESERVED_PREFIXES.has(prefix)) return `The prefix "${prefix}" is reserved.`;
  return undefined;
}

export function isHexColour(value: string): boolean {
  return HEX.test(value);
}
