import { describe, expect, it } from 'vitest';

import { ApiError, UnreadableAnswerError } from './api-client';
import {
  TIMEOUT_MESSAGE,
  UNREACHABLE_MESSAGE,
  UNREADABLE_ANSWER_MESSAGE,
  messageOf,
} from './errors';

describe('messageOf', () => {
  it("should show the API's message, or the fallback when it has none", () => {
    expect(messageOf(new ApiError(429, 'Too many.'))).toBe('Too many.');
    expect(messageOf(new ApiError(500, ' '))).toBe('An error occurred');
  });

  it("should never show the browser's own words when the server could not be reached", () => {
    for (const words of [
      'Failed to fetch',
      'Load failed',
      'NetworkError when attempting to fetch resource.',
    ]) {
      expect(messageOf(new TypeError(words))).toBe(UNREACHABLE_MESSAGE);
    }
    expect(messageOf(new DOMException('signal timed out', 'TimeoutError'))).toBe(TIMEOUT_MESSAGE);
  });

  it('should say in plain words that an answer which is not the API’s could not be read', () => {
    expect(messageOf(new UnreadableAnswerError(200))).toBe(UNREADABLE_ANSWER_MESSAGE);
    expect(UNREADABLE_ANSWER_MESSAGE).toBe("Our server's answer could not be read.");
  });

  it('should show a message we wrote ourselves, and nothing of an unexpected error', () => {
    expect(messageOf(new Error('Your request could not be sent.'))).toBe(
      'Your request could not be sent.',
    );
    expect(messageOf(new SyntaxError('Unexpected token < in JSON at position 0'))).toBe(
      'An error occurred',
    );
    expect(messageOf(new DOMException('The operation was aborted.', 'AbortError'))).toBe(
      'An error occurred',
    );
    expect(messageOf('text', 'Fallback.')).toBe('Fallback.');
  });
});
