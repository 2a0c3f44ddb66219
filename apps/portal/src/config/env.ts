/**
 * Build-time settings (Vite `VITE_*` variables). The provider's contact details normally come from the API with the
 * client; this address is only used by the error page when even the client could not be loaded.
 */
export const env = {
  fallbackContactEmail: import.meta.env.VITE_CONTACT_EMAIL || 'team@advisory.example',
} as const;
