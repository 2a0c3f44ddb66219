import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** A new row id. */
export const newId = (): string => randomUUID();

/** 32 random bytes, base64url: login tokens and session tokens (256 bits). */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/**
 * What every {@link randomToken} looks like, and nothing else of its length: 43 base64url characters, the last of
 * which holds the 32nd byte's final 4 bits and 2 zero bits, so it is one of 16 (the log hides values of this shape:
 * log-options.ts).
 */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/** SHA-256 as hex: how tokens are stored, so a database leak does not leak usable tokens. */
export const sha256 = (value: string | Buffer): string =>
  createHash('sha256').update(value).digest('hex');
