/**
 * Response shapes of the HTTP API (see the API contract). The portal only reads these; the API owns them.
 */

export type LoginPolicy = 'open' | 'magic-link';

export interface Branding {
  primary: string;
  accent: string;
  logo_url: string | null;
  /** The logo's own width and height (absent from an older server's answer). */
  logo_size?: { width: number; height: number } | null;
}

/** GET /api/{client}. Without a session `logged_in` is false and the four user fields are ''. */
export interface Client {
  prefix: string;
  name: string;
  logged_in: boolean;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  login_policy: LoginPolicy;
  branding: Branding;
  /** The provider's contact details (the team behind the hub), not the user's. */
  contact: { phone: string; email: string };
  footer: { blurb: string; regulatory: string };
}

export const CONTENT_TYPES = ['case_study', 'insight'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export interface ContentItem {
  id: string;
  type: ContentType;
  title: string;
  description_text: string;
  image_url: string | null;
}

/** An information hub topic. `description` and `pro_tip` are HTML sanitised by the server. */
export interface Topic {
  id: string;
  title: string;
  description: string;
  pro_tip: string | null;
}

/** GET /api/{client}/content (and with ?search=, the search result). */
export interface Content {
  insights: ContentItem[];
  case_studies: ContentItem[];
  insurance: Topic[];
}

export type SearchResult = Content;

/** GET /api/{client}/article?id=…&type=…; `description` is sanitised HTML. */
export interface Article {
  id: string;
  type: ContentType;
  title: string;
  image_url: string | null;
  description: string;
  related: ContentItem[];
}

/** GET /api/{client}/video (404 when the client has none). */
export interface Video {
  title: string;
  src: string;
  poster: string;
  captions: string | null;
  /** Sanitised HTML (transcript or introduction). */
  description: string;
}

/** POST /api/{client}/login: a path to go to (open policy), or false when a link was e-mailed. */
export interface LoginResponse {
  redirect: string | false;
}

export interface LoginRequest {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
}

export type ActivityAction = 'view' | 'submit' | 'search';

/** POST /api/{client}/warranty | btr | car → 201. */
export interface QuoteSubmissionResponse<Quote> {
  reference: string;
  quote: Quote;
}

/** Every API error body. */
export interface ApiErrorBody {
  error: string;
}
