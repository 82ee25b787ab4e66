/**
 * Domain types shared by the browser parts and the API.
 * Money is always an integer in thousandths of a euro (spec section 9).
 */

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
  /** The cheapest available variant; the tile shows its price ("od"). */
  variant: VariantData;
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
