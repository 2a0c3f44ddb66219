import { describe, expect, it } from 'vitest';

import { makeClient } from '@/testing/fixtures';

import { isClient, isLoginResponse } from './answer-shapes';
import { isArticle, isContent, isVideo } from './content-shapes';

const item = {
  id: 'riverside',
  type: 'case_study',
  title: 'Riverside',
  description_text: 'Twelve flats',
  image_url: null,
};
const topic = { id: 't1', title: 'Latent defects', description: '<p>Cover</p>', pro_tip: null };
const content = { insights: [], case_studies: [item], insurance: [topic] };
const article = { ...item, description: '<p>x</p>', related: [item] };
const video = {
  title: 'Welcome',
  src: '/media/v.webm',
  poster: null,
  captions: null,
  description: '',
};

describe('the shapes of the API’s answers', () => {
  it('should take the answers the API gives, with fields beyond them', () => {
    expect(isClient(makeClient())).toBe(true);
    expect(isClient({ ...makeClient(), later: 1 })).toBe(true);
    expect(isContent(content)).toBe(true);
    expect(isArticle(article)).toBe(true);
    expect(isVideo(video)).toBe(true);
    expect(isVideo({ ...video, poster: '/media/p.png', captions: '/media/c.vtt' })).toBe(true);
    expect(isLoginResponse({ redirect: '/demo/dashboard' })).toBe(true);
    expect(isLoginResponse({ redirect: false })).toBe(true);
  });

  // Found by the nineteenth session's portal probe: `{"insights":"nope","case_studies":null,…}` crashed the
  // dashboard and search to "Cannot read properties of null (reading 'length')".
  it.each([
    ['content with a list that is not one', { ...content, case_studies: null }],
    ['content with text for a list', { ...content, insights: 'nope' }],
    ['content with an item without a title', { ...content, case_studies: [{ ...item, title: 1 }] }],
    [
      'content with an item of an unknown type',
      { ...content, case_studies: [{ ...item, type: 'x' }] },
    ],
    [
      'content with a topic without a title',
      { ...content, insurance: [{ ...topic, title: null }] },
    ],
    ['content with nothing', {}],
  ])('should refuse %s', (_, answer) => {
    expect(isContent(answer)).toBe(false);
  });

  it('should refuse the other answers with a field missing or of the wrong type', () => {
    expect(isArticle({ ...article, related: undefined })).toBe(false);
    expect(isArticle({ ...article, description: null })).toBe(false);
    expect(isVideo({ ...video, src: null })).toBe(false);
    expect(isClient({ ...makeClient(), branding: null })).toBe(false);
    expect(isClient({ ...makeClient(), logged_in: 'yes' })).toBe(false);
    expect(isClient({ ...makeClient(), login_policy: 'other' })).toBe(false);
    expect(isLoginResponse({ redirect: true })).toBe(false);
    expect(isLoginResponse({})).toBe(false);
  });
});
