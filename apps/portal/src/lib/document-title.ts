import type { Client } from '@/types/api';

/**
 * A page's title in the browser tab: the page, then the client's name when the page is one of a client's. A module
 * of its own, so that the login and error pages take it without the hub's page heading (`components/ui/page-heading`).
 */
export function documentTitleOf(page: string, client: Pick<Client, 'name'> | undefined): string {
  return client ? `${page} – ${client.name}` : page;
}
