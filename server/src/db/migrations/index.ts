import type { Migration } from 'kysely';
import * as catalog from './2025-11-21T12-00-00Z_catalog.ts';
import * as content from './2025-11-21T12-10-00Z_content.ts';
import * as accountsAndCoupons from './2025-11-21T12-20-00Z_accounts-and-coupons.ts';
import * as shippingAndPayment from './2025-11-21T12-30-00Z_shipping-and-payment.ts';
import * as ordersAndPayments from './2025-12-01T09-00-00Z_orders-and-payments.ts';
import * as catalogListingAndSearch from './2025-12-02T09-00-00Z_catalog-listing-and-search.ts';
import * as contactMessages from './2025-12-03T09-00-00Z_contact-messages.ts';
import * as accountArea from './2025-12-10T09-00-00Z_account-area.ts';
import * as outboxAndPaymentSafety from './2026-11-22T09-00-00Z_outbox-and-payment-safety.ts';
import * as clientTelemetry from './2026-11-23T09-00-00Z_client-telemetry.ts';
import * as contactHoursFromKernel from './2026-11-23T12-00-00Z_contact-hours-from-kernel.ts';
import * as pickupPoints from './2026-11-23T13-00-00Z_pickup-points.ts';
import * as categoryFacetCounts from './2026-11-24T09-00-00Z_category-facet-counts.ts';
import * as categoryListing from './2026-11-25T09-00-00Z_category-listing.ts';
import * as facetCountsPerBrand from './2026-11-25T10-00-00Z_facet-counts-per-brand.ts';
import * as saleListingIndex from './2026-11-25T11-00-00Z_sale-listing-index.ts';
import * as searchInPopularityOrder from './2026-11-25T19-00-00Z_search-in-popularity-order.ts';
import * as productTileColumns from './2026-11-25T20-00-00Z_product-tile-columns.ts';
import * as brandListingIndex from './2026-11-25T21-00-00Z_brand-listing-index.ts';
import * as listingOrderRevisions from './2026-11-26T09-00-00Z_listing-order-revisions.ts';
import * as searchPrefixIndexes from './2026-11-26T10-00-00Z_search-prefix-indexes.ts';
import * as saleListingOrders from './2026-11-26T11-00-00Z_sale-listing-orders.ts';
import * as searchOrderInIndex from './2026-11-26T12-00-00Z_search-order-in-index.ts';
import * as searchIndexListedOnly from './2026-11-26T13-00-00Z_search-index-listed-only.ts';
import * as searchListedDocumentIndex from './2026-11-26T20-00-00Z_search-listed-document-index.ts';
import * as searchHitCount from './2026-11-26T23-00-00Z_search-hit-count.ts';
import * as saleCounts from './2026-11-27T01-00-00Z_sale-counts.ts';
import * as searchPrefixLexemes from './2026-11-27T02-00-00Z_search-prefix-lexemes.ts';
import * as saleFacetCounts from './2026-11-27T03-00-00Z_sale-facet-counts.ts';
import * as backupStatus from './2026-11-27T07-00-00Z_backup-status.ts';
import * as releaseIdentities from './2026-11-27T08-00-00Z_release-identities.ts';
import * as operatorAccounts from './2026-11-27T10-00-00Z_operator-accounts.ts';
import * as releaseSigning from './2026-11-27T11-00-00Z_release-signing.ts';
import * as cspViolations from './2026-11-27T11-30-00Z_csp-violations.ts';
import * as releaseIntegrityChecks from './2026-11-27T12-00-00Z_release-integrity-checks.ts';
import * as clientVitals from './2026-11-27T13-00-00Z_client-vitals.ts';
import * as releaseTrustChain from './2026-11-28T09-00-00Z_release-trust-chain.ts';
import * as clientSessions from './2026-11-28T09-10-00Z_client-sessions.ts';
import * as renderFailures from './2026-11-28T09-20-00Z_render-failures.ts';
import * as operatorSecondFactor from './2026-11-28T09-30-00Z_operator-second-factor.ts';
import * as clientErrorGroups from './2026-11-28T10-40-00Z_client-error-groups.ts';
import * as releasePreviews from './2026-11-28T11-00-00Z_release-previews.ts';
import * as featureFlags from './2026-11-28T12-30-00Z_feature-flags.ts';
import * as commerceGuardrails from './2026-11-28T14-00-00Z_commerce-guardrails.ts';
import * as localOverrides from './2026-11-28T19-00-00Z_local-overrides.ts';
import * as commerceFunnel from './2026-11-29T09-00-00Z_commerce-funnel.ts';

/**
 * Every migration, keyed by its file name (ISO timestamp first, so the keys sort in run order).
 * A static map, not a folder scan: it works the same under tsx, vitest and any bundler.
 */
export const migrations: Record<string, Migration> = {
  '2025-11-21T12-00-00Z_catalog': catalog,
  '2025-11-21T12-10-00Z_content': content,
  '2025-11-21T12-20-00Z_accounts-and-coupons': accountsAndCoupons,
  '2025-11-21T12-30-00Z_shipping-and-payment': shippingAndPayment,
  '2025-12-01T09-00-00Z_orders-and-payments': ordersAndPayments,
  '2025-12-02T09-00-00Z_catalog-listing-and-search': catalogListingAndSearch,
  '2025-12-03T09-00-00Z_contact-messages': contactMessages,
  '2025-12-10T09-00-00Z_account-area': accountArea,
  '2026-11-22T09-00-00Z_outbox-and-payment-safety': outboxAndPaymentSafety,
  '2026-11-23T09-00-00Z_client-telemetry': clientTelemetry,
  '2026-11-23T12-00-00Z_contact-hours-from-kernel': contactHoursFromKernel,
  '2026-11-23T13-00-00Z_pickup-points': pickupPoints,
  '2026-11-24T09-00-00Z_category-facet-counts': categoryFacetCounts,
  '2026-11-25T09-00-00Z_category-listing': categoryListing,
  '2026-11-25T10-00-00Z_facet-counts-per-brand': facetCountsPerBrand,
  '2026-11-25T11-00-00Z_sale-listing-index': saleListingIndex,
  '2026-11-25T19-00-00Z_search-in-popularity-order': searchInPopularityOrder,
  '2026-11-25T20-00-00Z_product-tile-columns': productTileColumns,
  '2026-11-25T21-00-00Z_brand-listing-index': brandListingIndex,
  '2026-11-26T09-00-00Z_listing-order-revisions': listingOrderRevisions,
  '2026-11-26T10-00-00Z_search-prefix-indexes': searchPrefixIndexes,
  '2026-11-26T11-00-00Z_sale-listing-orders': saleListingOrders,
  '2026-11-26T12-00-00Z_search-order-in-index': searchOrderInIndex,
  '2026-11-26T13-00-00Z_search-index-listed-only': searchIndexListedOnly,
  '2026-11-26T20-00-00Z_search-listed-document-index': searchListedDocumentIndex,
  '2026-11-26T23-00-00Z_search-hit-count': searchHitCount,
  '2026-11-27T01-00-00Z_sale-counts': saleCounts,
  '2026-11-27T02-00-00Z_search-prefix-lexemes': searchPrefixLexemes,
  '2026-11-27T03-00-00Z_sale-facet-counts': saleFacetCounts,
  '2026-11-27T07-00-00Z_backup-status': backupStatus,
  '2026-11-27T08-00-00Z_release-identities': releaseIdentities,
  '2026-11-27T10-00-00Z_operator-accounts': operatorAccounts,
  '2026-11-27T11-00-00Z_release-signing': releaseSigning,
  '2026-11-27T11-30-00Z_csp-violations': cspViolations,
  '2026-11-27T12-00-00Z_release-integrity-checks': releaseIntegrityChecks,
  '2026-11-27T13-00-00Z_client-vitals': clientVitals,
  '2026-11-28T09-00-00Z_release-trust-chain': releaseTrustChain,
  '2026-11-28T09-10-00Z_client-sessions': clientSessions,
  '2026-11-28T09-20-00Z_render-failures': renderFailures,
  '2026-11-28T09-30-00Z_operator-second-factor': operatorSecondFactor,
  '2026-11-28T10-40-00Z_client-error-groups': clientErrorGroups,
  '2026-11-28T11-00-00Z_release-previews': releasePreviews,
  '2026-11-28T12-30-00Z_feature-flags': featureFlags,
  '2026-11-28T14-00-00Z_commerce-guardrails': commerceGuardrails,
  '2026-11-28T19-00-00Z_local-overrides': localOverrides,
  '2026-11-29T09-00-00Z_commerce-funnel': commerceFunnel,
};
