import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** A new row id. */
export const newId = (): string => randomUUID();

/** 32 random bytes, base64url: login tokens and session tokens (256 bits). */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** SHA-256 as hex: how tokens are stored, so a database leak does not leak usable tokens. */
export const sha256 = (value: string | Buffer): string =>
  createHash('sha256').update(value).digest('hex');
