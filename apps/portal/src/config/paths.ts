/**
 * Every route and API path of the portal, in one typed object. Components never build URLs by hand.
 *
 * `routes` holds the router's patterns (relative to `/:client`); `paths.app` builds the hub's links, `paths.api`
 * the API's, `paths.static` the files the portal ships.
 */
import type { ContentType } from '@/types/api';

/** Route patterns, relative to the `/:client` parent route. */
export const routes = {
  client: ':client',
  login: 'login',
  dashboard: 'dashboard',
  info: 'info',
  searchResults: 'search-results',
  article: 'article',
  sampleReport: 'sample-report',
  insuranceFramework: 'insurance-framework',
  insuranceGuide: 'insurance-guide',
  dueDiligence: 'due-diligence',
  calculator: {
    buildingWarranty: 'calculator/building-warranty',
    contractorsAllRisks: 'calculator/contractors-all-risks',
    btrWarranty: 'calculator/btr-warranty',
  },
} as const;

const seg = (value: string) => encodeURIComponent(value);

const app = (prefix: string, route = '') =>
  route ? `/${seg(prefix)}/${route}` : `/${seg(prefix)}`;

const withQuery = (path: string, query: Record<string, string | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
};

export const paths = {
  app: {
    root: (prefix: string) => app(prefix),
    login: (prefix: string) => app(prefix, routes.login),
    dashboard: (prefix: string) => app(prefix, routes.dashboard),
    info: (prefix: string) => app(prefix, routes.info),
    searchResults: (prefix: string, search?: string) =>
      withQuery(app(prefix, routes.searchResults), { search }),
    article: (prefix: string, item: { id: string; type: ContentType }) =>
      withQuery(app(prefix, routes.article), { id: item.id, type: item.type }),
    sampleReport: (prefix: string) => app(prefix, routes.sampleReport),
    insuranceFramework: (prefix: string) => app(prefix, routes.insuranceFramework),
    insuranceGuide: (prefix: string) => app(prefix, routes.insuranceGuide),
    dueDiligence: (prefix: string, options?: { success?: boolean }) =>
      withQuery(app(prefix, routes.dueDiligence), { success: options?.success ? '1' : undefined }),
    calculator: {
      buildingWarranty: (prefix: string) => app(prefix, routes.calculator.buildingWarranty),
      contractorsAllRisks: (prefix: string) => app(prefix, routes.calculator.contractorsAllRisks),
      btrWarranty: (prefix: string) => app(prefix, routes.calculator.btrWarranty),
    },
  },
  api: {
    client: (prefix: string) => `/api/${seg(prefix)}`,
    login: (prefix: string) => `/api/${seg(prefix)}/login`,
    logout: (prefix: string) => `/api/${seg(prefix)}/logout`,
    activity: (prefix: string) => `/api/${seg(prefix)}/activity`,
    video: (prefix: string) => `/api/${seg(prefix)}/video`,
    content: (prefix: string, search?: string) =>
      withQuery(`/api/${seg(prefix)}/content`, { search }),
    article: (prefix: string, item: { id: string; type: ContentType }) =>
      withQuery(`/api/${seg(prefix)}/article`, { id: item.id, type: item.type }),
    warranty: (prefix: string) => `/api/${seg(prefix)}/warranty`,
    btr: (prefix: string) => `/api/${seg(prefix)}/btr`,
    car: (prefix: string) => `/api/${seg(prefix)}/car`,
    dueDiligence: (prefix: string) => `/api/${seg(prefix)}/due-diligence`,
  },
  static: {
    sampleReport: '/sample-report.pdf',
  },
} as const;
