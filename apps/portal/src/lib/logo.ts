import type { Branding } from '@/types/api';

/**
 * The `width` and `height` of a client's logo as its own size (the API's `logo_size`), so that the browser keeps its
 * place before it loads: with `height` set in CSS and `width: auto`, they give the box its width. Found by the
 * twenty-fifth session's portal probe: the header's logo had no width until it loaded, and on a phone the welcome
 * line wrapped when it came, pushing the page down (a layout shift of 0.14). Nothing for a size that is not two
 * positive numbers (an older server, a logo that tells none).
 */
export function logoSize(branding: Branding): { width?: number; height?: number } {
  const size = branding.logo_size;
  if (
    size == null ||
    !(Number.isFinite(size.width) && size.width > 0) ||
    !(Number.isFinite(size.height) && size.height > 0)
  ) {
    return {};
  }
  return { width: size.width, height: size.height };
}
