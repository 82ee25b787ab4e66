import type { Kysely, Transaction } from 'kysely';
import type {
  AddressTable,
  ComplaintPhotoTable,
  ComplaintTable,
  OrderStatusHistoryTable,
  PasswordResetTable,
  RevokedTokenTable,
  UserTable,
  WithdrawalItemTable,
  WithdrawalTable,
} from './account.table.ts';
import type {
  AttributeTable,
  AttributeValueTable,
  CategoryAncestorTable,
  CategoryFacetCountTable,
  CategoryListingTable,
  CategoryFacetRevTable,
  BrandTable,
  CategoryTable,
  PriceHistoryTable,
  ProductAccessoryTable,
  ProductTable,
  VariantTable,
} from './catalog.table.ts';
import type { PaymentMethodTable, ShippingMethodTable } from './checkout.table.ts';
import type {
  BlogPostTable,
  BlogPostTagTable,
  BlogTagTable,
  ContactMessageTable,
  PageTable,
  RedirectTable,
  SettingTable,
} from './content.table.ts';
import type { EmailChangeTable, OutboxTable } from './outbox.table.ts';
import type { ClientMetricTable, ClientSessionTable } from './telemetry.table.ts';
import type { BackupStatusTable } from './backup.table.ts';
import type { CspViolationTable } from './csp-violation.table.ts';
import type { ClientVitalTable } from './client-vitals.table.ts';
import type { RenderFailureTable } from './render-failure.table.ts';
import type { ClientErrorGroupTable } from './client-error-group.table.ts';
import type { ReleasePreviewTable } from './release-preview.table.ts';
import type { FeatureFlagTable } from './feature-flag.table.ts';
import type {
  ReleaseIntegrityCheckTable,
  ReleaseIntegrityFindingTable,
  ReleaseSignatureTable,
  ReleaseSigningKeyTable,
} from './release-integrity.table.ts';
import type { ReleaseAuditTable, ReleaseCredentialTable } from './release-identity.table.ts';
import type {
  MachineCredentialTable,
  OperatorRecoveryCodeTable,
  OperatorSessionTable,
  OperatorSignInFailureTable,
  OperatorTable,
} from './operator.table.ts';
import type { ReleaseFloorTable, ReleaseMoveTable, ReleaseRegistryTable } from './release-registry.table.ts';
import type { PickupPointTable } from './orders.table.ts';
import type { CouponRedemptionTable, CouponTable, UserCouponTable } from './coupon.table.ts';
import type {
  OrderItemTable,
  OrderTable,
  OrderVersionTable,
  PaymentNotificationTable,
  PaymentTable,
  ShippingWeightBandTable,
} from './orders.table.ts';

export interface Database {
  categories: CategoryTable;
  brands: BrandTable;
  products: ProductTable;
  variants: VariantTable;
  attributes: AttributeTable;
  attribute_values: AttributeValueTable;
  category_facet_counts: CategoryFacetCountTable;
  category_facet_revs: CategoryFacetRevTable;
  category_facet_computed: CategoryFacetRevTable;
  category_ancestors: CategoryAncestorTable;
  category_listing: CategoryListingTable;
  price_history: PriceHistoryTable;
  product_accessories: ProductAccessoryTable;
  redirects: RedirectTable;
  pages: PageTable;
  blog_posts: BlogPostTable;
  blog_tags: BlogTagTable;
  blog_post_tags: BlogPostTagTable;
  users: UserTable;
  revoked_tokens: RevokedTokenTable;
  coupons: CouponTable;
  user_coupons: UserCouponTable;
  coupon_redemptions: CouponRedemptionTable;
  shipping_methods: ShippingMethodTable;
  payment_methods: PaymentMethodTable;
  settings: SettingTable;
  orders: OrderTable;
  order_items: OrderItemTable;
  order_versions: OrderVersionTable;
  payments: PaymentTable;
  payment_notifications: PaymentNotificationTable;
  shipping_weight_bands: ShippingWeightBandTable;
  contact_messages: ContactMessageTable;
  // account area
  password_resets: PasswordResetTable;
  addresses: AddressTable;
  order_status_history: OrderStatusHistoryTable;
  withdrawals: WithdrawalTable;
  withdrawal_items: WithdrawalItemTable;
  complaints: ComplaintTable;
  complaint_photos: ComplaintPhotoTable;
  outbox: OutboxTable;
  email_changes: EmailChangeTable;
  // client telemetry: page views and errors per minute, area and version
  client_metrics: ClientMetricTable;
  // what the canary watch judges: per telemetry session and part version, each session once
  client_sessions: ClientSessionTable;
  pickup_points: PickupPointTable;
  // the last backup taken and the last that failed
  backup_status: BackupStatusTable;
  // release credentials of the area teams, and every release action allowed or refused
  release_credentials: ReleaseCredentialTable;
  release_audit: ReleaseAuditTable;
  // keys that may sign releases, signatures accepted (replays refused), what the integrity check found
  release_signing_keys: ReleaseSigningKeyTable;
  release_signatures: ReleaseSignatureTable;
  release_integrity_findings: ReleaseIntegrityFindingTable;
  release_integrity_checks: ReleaseIntegrityCheckTable;
  // the registry in force with its growing revision, its moves and its floors
  release_registry: ReleaseRegistryTable;
  release_moves: ReleaseMoveTable;
  release_floors: ReleaseFloorTable;
  // operator accounts of the console, their sessions, recovery codes and the failed sign-ins the lockout counts
  operators: OperatorTable;
  operator_sessions: OperatorSessionTable;
  operator_sign_in_failures: OperatorSignInFailureTable;
  operator_recovery_codes: OperatorRecoveryCodeTable;
  // machines' credentials (Prometheus's metrics credential)
  machine_credentials: MachineCredentialTable;
  // the pages' Content-Security-Policy violations per day, page type, part and directive
  csp_violations: CspViolationTable;
  // the shoppers' Web Vitals: counts per hour, part, version, route, metric and value bucket
  client_vitals: ClientVitalTable;
  // server renders that failed in the sandbox, the newest kept
  render_failures: RenderFailureTable;
  // client errors grouped by area, version, route and mapped top frame
  client_error_groups: ClientErrorGroupTable;
  release_previews: ReleasePreviewTable;
  // feature switches per area (absent: on)
  feature_flags: FeatureFlagTable;
}

export type Db = Kysely<Database>;
/** What repositories accept: the database or a transaction on it. */
export type DbOrTrx = Kysely<Database> | Transaction<Database>;
export type DialectName = 'sqlite' | 'postgres';
