/**
 * Domain types shared by the browser parts and the API.
 * Money is always an integer in thousandths of a euro (spec section 9).
 */
import type { ProductAccessory, VariantLowestPrice } from './catalog.ts';

export type Availability = 'in_stock' | 'to_order' | 'unavailable';

/** Variant data as the basket and the price rules need it (spec section 3). */
export type VariantData = {
  v_id: number;
  v_code: string;
  /** Variant label shown to the shopper, e.g. "25 kg" or "biela, 10 l". */
  v_name: string;
  /** Sell price without VAT, thousandths of a euro. */
  v_sellPrice: number;
  /** VAT in percent (default 23). */
  v_vat: number;
  /** Discount in thousandths of a percent (10000 = 10 %). */
  v_sale: number;
  v_stock: number;
  v_availability: Availability;
  /** Weight of one piece in grams. */
  v_weight: number;
  /** Sales unit shown after the amount, e.g. "ks", "vrece", "m²". */
  v_unit: string;
  /** For a unit price: how many base units one piece holds (thousandths), e.g. 25 kg bag = 25000. */
  v_baseAmount: number | null;
  /** Base unit for the unit price, e.g. "kg", "m²", "l"; null when the product has none. */
  v_baseUnit: string | null;
  p_id: number;
  p_name: string;
  p_url: string;
  p_image: string;
};

/** One line of the basket (spec section 3). */
export type BasketLine = {
  v_id: number;
  amount: number;
  variantData: VariantData;
  isComponent: boolean;
  isRequired: boolean;
};

export type CategoryNode = {
  cat_id: number;
  cat_url: string;
  cat_name: string;
  children: CategoryNode[];
};

export type Breadcrumb = { name: string; url: string };

export type Brand = {
  b_id: number;
  b_url: string;
  b_name: string;
};

export type AttributeValue = {
  av_string: string | null;
  /** Numeric value in thousandths. */
  av_integer: number | null;
};

export type AttributeEntry = {
  attr_id: number;
  attr_name: string;
  /** 1 means shown. */
  use_attr: 0 | 1;
  attributeValues: AttributeValue[];
  units: { unit_name: string } | null;
};

export type RedirectEntry = { old_url: string; new_url: string };

/** A product as a listing tile shows it. */
export type ProductSummary = {
  p_id: number;
  p_url: string;
  p_name: string;
  p_image: string;
  brand: Brand | null;
  variantCount: number;
  /** The cheapest purchasable variant (current price, sale included); the tile shows its price ("od"). */
  variant: VariantData;
  /** The deepest discount among the product's variants, percent (0: none); the tile's sale badge. */
  saleUpTo: number;
  /** The lowest price of the 30 days before the tile variant's discount; null when not discounted. */
  lowestPrice30: number | null;
};

export type ProductDetail = {
  p_id: number;
  p_url: string;
  p_name: string;
  p_description: string;
  p_images: string[];
  brand: Brand | null;
  breadcrumbs: Breadcrumb[];
  variants: VariantData[];
  attributes: AttributeEntry[];
  /** The 30-day lowest price of every discounted variant (issue 4). */
  lowestPrices: VariantLowestPrice[];
  /** Required accessories and components the basket gets with the product. */
  accessories: ProductAccessory[];
  related: ProductSummary[];
};

export type CategoryDetail = {
  cat_id: number;
  cat_url: string;
  cat_name: string;
  cat_description: string;
  breadcrumbs: Breadcrumb[];
  children: CategoryNode[];
};

export type StaticPage = {
  slug: string;
  title: string;
  metaDescription: string;
  /** Sanitised HTML. */
  contentHtml: string;
};

export type BlogPostSummary = {
  slug: string;
  title: string;
  perex: string;
  publishedAt: string;
  tags: { slug: string; name: string }[];
};

export type BlogTag = { slug: string; name: string; count: number };

export type BlogPost = BlogPostSummary & {
  /** Sanitised HTML. */
  contentHtml: string;
};

export type Coupon = {
  code: string;
};

/** Answer of POST /api/coupon/validate (spec section 7). */
export type CouponValidation = {
  valid: boolean;
  message: string;
  coupon: Coupon | null;
  /** Discount in euros; the kernel turns it into thousandths (spec section 9). */
  discount: number;
};

/** Consent choices (spec section 3). */
export type ConsentChoices = {
  cookie_required: boolean;
  cookie_ga: boolean;
  cookie_ads: boolean;
};

export type MenuLink = { label: string; url: string };

export type MenuData = {
  categories: CategoryNode[];
  links: MenuLink[];
};

export type SiteData = {
  name: string;
  phone: string;
  email: string;
  address: { street: string; city: string; zip: string; country: string };
  company: { name: string; ico: string; dic: string; icDph: string };
  footerLinks: MenuLink[];
};

export type User = {
  id: number;
  email: string;
  name: string;
};

export type HomeData = {
  categories: CategoryNode[];
  sale: ProductSummary[];
  newest: ProductSummary[];
  brands: Brand[];
};

// ---- checkout (issue 5) ----

export type PostalAddress = {
  street: string;
  city: string;
  /** PSČ, five digits (a space after the third is accepted on input). */
  zip: string;
};

export type CompanyData = {
  name: string;
  /** IČO, eight digits. */
  ico: string;
  /** DIČ, ten digits. */
  dic: string;
  /** IČ DPH, "SK" and ten digits; empty when the company is not a VAT payer. */
  icDph: string;
};

/** What the contact step collects. */
export type CheckoutContact = {
  email: string;
  /** Slovak number in the form +421 9xx xxx xxx (normalised by the API to +421xxxxxxxxx). */
  phone: string;
  name: string;
  billing: PostalAddress;
  /** Null: a private purchase. */
  company: CompanyData | null;
  /** Null: deliver to the billing address. */
  delivery: (PostalAddress & { name: string }) | null;
};

export type ShippingCode = 'pickup' | 'courier' | 'pickup-point' | 'pallet' | 'own-truck';
export type PaymentCode = 'card' | 'transfer' | 'cod' | 'cash';

/** A shipping or payment method as offered for a given basket; prices with VAT. */
export type CheckoutMethod = {
  code: string;
  name: string;
  description: string;
  /** Price with VAT, thousandths. */
  price: number;
  available: boolean;
  /** Why it is not available (Slovak), null when it is. */
  reason: string | null;
};

/** VAT of one rate: base + vat = total (thousandths). */
export type VatLine = { rate: number; base: number; vat: number; total: number };

/** A basket or order line priced by the API from the database. */
export type OrderLine = {
  v_id: number;
  v_code: string;
  p_name: string;
  v_name: string;
  v_unit: string;
  amount: number;
  /** Unit price with VAT, whole cents (spec section 9). */
  unitPrice: number;
  vat: number;
  /** unitPrice × amount. */
  lineTotal: number;
};

/** The API's price of a basket with a shipping and payment choice. */
export type CheckoutQuote = {
  lines: OrderLine[];
  /** Grams. */
  weight: number;
  itemsTotal: number;
  coupon: Coupon | null;
  /** Coupon discount, thousandths, never more than itemsTotal. */
  discount: number;
  /** Why the coupon was not applied, null otherwise. */
  couponMessage: string | null;
  shipping: CheckoutMethod[];
  payment: CheckoutMethod[];
  shippingPrice: number;
  paymentPrice: number;
  total: number;
  /** What the shopper pays: the total rounded to 0.05 € for cash payments, else the total. */
  amountDue: number;
  vat: VatLine[];
};

export type OrderPaymentStatus = 'pending' | 'paid' | 'cancelled' | 'failed' | 'on_delivery';

/** Bank transfer details with the PAY by square code. */
export type TransferInstructions = {
  iban: string;
  variableSymbol: string;
  amount: number;
  beneficiary: string;
  /** The PAY by square QR code as an SVG document. */
  qrSvg: string;
};

/** A place where a parcel waits for the shopper (shipping "Výdajné miesto"). */
export type PickupPoint = {
  code: string;
  name: string;
  street: string;
  /** PSČ, five digits. */
  zip: string;
  city: string;
  /** Opening hours as shown, e.g. "Po – Pi 8:00 – 18:00, So 8:00 – 12:00". */
  hours: string;
  lat: number;
  lon: number;
  /** Kilometres from the position asked about, rounded to 0.1; null without a position. */
  distanceKm: number | null;
};

export type OrderDetail = {
  number: string;
  token: string;
  createdAt: string;
  status: 'new' | 'cancelled';
  paymentStatus: OrderPaymentStatus;
  /** The pickup point chosen for shipping "Výdajné miesto"; null for other shipping. */
  pickupPoint: PickupPoint | null;
  shipping: { code: string; name: string; price: number };
  payment: { code: string; name: string; price: number };
  contact: CheckoutContact;
  note: string;
  lines: OrderLine[];
  itemsTotal: number;
  couponCode: string | null;
  discount: number;
  total: number;
  amountDue: number;
  vat: VatLine[];
  transfer: TransferInstructions | null;
  /** A card payment that was cancelled, failed or never finished can be started again. */
  canRetryPayment: boolean;
};

/** Operator view of releases (the /ops page). */
export type ReleasePart = 'shell' | 'catalog' | 'checkout' | 'account' | 'content';

/** A page an area ships: declared by the area's build, carried by the registry; the shell builds its route table from these. */
export type AreaRoute = {
  /** Unique across the shop, e.g. 'checkout-cart'. */
  name: string;
  /** React Router path: static segments and :params, e.g. '/checkout/thankyou/:orderToken'. */
  path: string;
  /** The exposed module that renders it, './CartPage'. */
  module: string;
  layout: 'default' | 'checkout' | 'account';
  /** The step needs a non-empty basket; otherwise the shopper goes to the basket. */
  requiresBasket?: boolean;
  /** The page is for signed-in shoppers (the area sends guests to sign in). */
  requiresSignIn?: boolean;
  /** No consent notice and no analytics (utility routes). */
  noConsent?: boolean;
};

export type ReleaseAction = 'deploy' | 'rollback' | 'publish' | 'canary' | 'promote' | 'abort' | 'pin' | 'unpin';

export type ReleaseMove = {
  at: string;
  who: string;
  part: ReleasePart;
  action: ReleaseAction;
  from: string | null;
  to: string;
  reason?: string | null;
  /** The commit the build came from, and whether the working tree had changes. */
  commit?: string | null;
  dirty?: boolean | null;
  share?: number;
};

export type ReleasePin = { version: string; by: string; at: string; reason: string | null };

export type ReleasePartStatus = {
  part: ReleasePart;
  version: string | null;
  since: string | null;
  by: string | null;
  versionsKept: string[];
  pin: ReleasePin | null;
  canary: { version: string; share: number; since: string; by: string } | null;
  /** Where a rollback without a version goes (and when that version was last in force, put there by whom), or why none. */
  rollback: { version: string; lastInForceUntil: string; by: string | null } | { refused: string };
};

/** Page views and client errors of one version of an area in the last hour. */
export type ReleaseVersionHealth = { area: string; version: string; views: number; errors: number };

export type ReleaseStatus = {
  revision: string;
  /** False: the origin has no registry (a mistyped DATA_DIR?). */
  registry: boolean;
  lock: { pid: number; host: string; since: string; what: string; stale: boolean; staleBecause: string | null } | null;
  parts: ReleasePartStatus[];
  history: ReleaseMove[];
  health: ReleaseVersionHealth[];
};

/** The shipping and payment price list (the /doprava-a-platba page), from the checkout's own rules. Prices with VAT. */
export type ShippingPriceList = {
  shipping: {
    code: string;
    name: string;
    description: string;
    /** Base price, or the price per pallet for pallet delivery. */
    price: number;
    /** Weight bands (grams) with their prices, lightest first; empty: one price. */
    bands: { maxWeight: number; price: number }[];
    /** Free from this order value (goods after discount), or null. */
    freeFrom: number | null;
    /** Heaviest order (grams) the method takes, or null. */
    maxWeight: number | null;
    /** Pallet delivery: priced per started `perWeight` grams, offered above `minWeight` grams. */
    pallet: { perWeight: number; minWeight: number } | null;
  }[];
  payment: { code: string; name: string; description: string; price: number; onlyWith: string[] }[];
};
