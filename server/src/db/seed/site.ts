import type { MenuLink, SiteData } from '@shop/shared-kernel/contract';
import type { NewPaymentMethod, NewShippingMethod } from '../checkout.table.ts';
import type { NewRedirect } from '../content.table.ts';
import type { NewCoupon } from '../coupon.table.ts';

export const SITE: SiteData = {
  name: 'Stavebniny Domov',
  phone: '+421 41 555 12 34',
  email: 'obchod@example.sk',
  address: { street: 'Priemyselná 12', city: 'Žilina', zip: '010 01', country: 'Slovensko' },
  company: { name: 'Stavebniny Domov s.r.o.', ico: '51234567', dic: '2120123456', icDph: 'SK2120123456' },
  footerLinks: [
    { label: 'Kontakt', url: '/s/kontakt' },
    { label: 'Doprava a platba', url: '/doprava-a-platba' },
    { label: 'Obchodné podmienky', url: '/s/obchodne-podmienky' },
    { label: 'Reklamačný poriadok', url: '/s/reklamacny-poriadok' },
    { label: 'Ochrana osobných údajov', url: '/s/ochrana-sukromia' },
    { label: 'Vernostný program', url: '/s/vernostny-program' },
  ],
};

export const MENU_LINKS: MenuLink[] = [
  { label: 'Výpredaj', url: '/vypredaj' },
  { label: 'Blog', url: '/blog' },
  { label: 'Vernostný program', url: '/s/vernostny-program' },
  { label: 'Doprava a platba', url: '/doprava-a-platba' },
  { label: 'Kontakt', url: '/s/kontakt' },
];

export const OPENING_HOURS = { open: '08:00', close: '15:30', days: [1, 2, 3, 4, 5] };

/** Prices without VAT, thousandths of a euro (5,90 € with 23 % VAT = 4797). */
export const SHIPPING_METHODS: NewShippingMethod[] = [
  {
    sm_code: 'pickup',
    sm_name: 'Osobný odber na predajni v Žiline',
    sm_description: 'Tovar pripravíme do 2 hodín v otváracích hodinách.',
    sm_price: 0,
    sm_free_from: null,
    sm_max_weight: null,
    sm_position: 1,
  },
  {
    sm_code: 'courier',
    sm_name: 'Kuriér',
    sm_description: 'Balíky do 30 kg, doručenie do 2 až 4 pracovných dní.',
    sm_price: 4797,
    sm_free_from: 150_000,
    sm_max_weight: 30_000,
    sm_position: 2,
  },
  {
    sm_code: 'pallet',
    sm_name: 'Paletová preprava po Slovensku',
    sm_description: 'Cena za paletu, vyloženie hydraulickou rukou.',
    sm_price: 39_837,
    sm_free_from: null,
    sm_max_weight: null,
    sm_position: 3,
  },
  {
    sm_code: 'own-truck',
    sm_name: 'Vlastná doprava s hydraulickou rukou do 50 km',
    sm_description: 'Doručenie podľa dohody, zvyčajne do 3 pracovných dní.',
    sm_price: 31_707,
    sm_free_from: 1_500_000,
    sm_max_weight: null,
    sm_position: 4,
  },
];

export const PAYMENT_METHODS: NewPaymentMethod[] = [
  {
    pm_code: 'card',
    pm_name: 'Platobnou kartou online',
    pm_description: 'Visa, Mastercard, Apple Pay a Google Pay.',
    pm_price: 0,
    pm_position: 1,
  },
  {
    pm_code: 'transfer',
    pm_name: 'Bankovým prevodom',
    pm_description: 'Tovar odošleme po pripísaní platby na účet.',
    pm_price: 0,
    pm_position: 2,
  },
  { pm_code: 'cod', pm_name: 'Na dobierku', pm_description: 'Platba kuriérovi pri prevzatí.', pm_price: 1220, pm_position: 3 },
  {
    pm_code: 'cash',
    pm_name: 'V hotovosti alebo kartou na predajni',
    pm_description: 'Len pri osobnom odbere.',
    pm_price: 0,
    pm_position: 4,
  },
];

export const REDIRECTS: NewRedirect[] = [
  { old_url: '/stara-kategoria/tehly', new_url: '/c/tehly' },
  { old_url: '/stara-kategoria/sadrokarton', new_url: '/c/sadrokarton' },
  { old_url: '/akcia', new_url: '/vypredaj' },
  { old_url: '/akciove-ponuky', new_url: '/vypredaj' },
  { old_url: '/katalog-2024', new_url: 'https://www.example.sk/katalog' },
  { old_url: '/kontakt', new_url: '/s/kontakt' },
  { old_url: '/obchodne-podmienky', new_url: '/s/obchodne-podmienky' },
  { old_url: '/produkt/porotherm-30-profi', new_url: '/p/tehla-porotherm-30-profi' },
  { old_url: '/znacka/baumit', new_url: '/b/baumit' },
];

export const DEMO_USERS = [
  { email: 'zakaznik@example.sk', password: 'Heslo123!', name: 'Ján Novák' },
  { email: 'maria.kovacova@example.sk', password: 'Heslo456!', name: 'Mária Kováčová' },
] as const;

export const COUPONS: NewCoupon[] = [
  // 10 % from 50 € with VAT
  {
    code: 'ZLAVA10',
    kind: 'percent',
    value: 10_000,
    min_total: 50_000,
    valid_from: '2025-01-01T00:00:00.000Z',
    valid_to: '2099-12-31T23:59:59.999Z',
    max_uses: null,
    once_per_customer: 0,
  },
  // 5 € off any basket
  {
    code: 'MINUS5',
    kind: 'amount',
    value: 5_000,
    min_total: 0,
    valid_from: '2025-01-01T00:00:00.000Z',
    valid_to: '2099-12-31T23:59:59.999Z',
    max_uses: null,
    once_per_customer: 0,
  },
  // expired
  {
    code: 'LETO2024',
    kind: 'percent',
    value: 15_000,
    min_total: 0,
    valid_from: '2024-06-01T00:00:00.000Z',
    valid_to: '2024-08-31T23:59:59.999Z',
    max_uses: null,
    once_per_customer: 0,
  },
  // welcome coupon, once per customer; the first demo user has used it already
  {
    code: 'VITAJ15',
    kind: 'percent',
    value: 15_000,
    min_total: 0,
    valid_from: '2025-01-01T00:00:00.000Z',
    valid_to: '2099-12-31T23:59:59.999Z',
    max_uses: null,
    once_per_customer: 1,
  },
  // limited to one use, already used by the second demo user
  {
    code: 'PRVYNAKUP',
    kind: 'amount',
    value: 20_000,
    min_total: 100_000,
    valid_from: '2025-01-01T00:00:00.000Z',
    valid_to: '2099-12-31T23:59:59.999Z',
    max_uses: 1,
    once_per_customer: 0,
  },
];

/** [coupon code, index into DEMO_USERS] */
export const REDEMPTIONS: [string, number][] = [
  ['VITAJ15', 0],
  ['PRVYNAKUP', 1],
];
