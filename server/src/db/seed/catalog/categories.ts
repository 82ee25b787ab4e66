import type { CategoryDraft } from './types.ts';

const c = (url: string, name: string, description: string, children?: CategoryDraft[]): CategoryDraft =>
  children ? { url, name, description, children } : { url, name, description };

/** The category tree, three levels deep; products sit in the leaves. */
export const CATEGORY_TREE: CategoryDraft[] = [
  c('hruba-stavba', 'Hrubá stavba', 'Všetko na hrubú stavbu domu: murivo, cement, preklady a stropy.', [
    c('murivo', 'Murivo', 'Tehly, tvárnice a komínové systémy na obvodové aj vnútorné steny.', [
      c('tehly', 'Tehly', 'Pálené brúsené tehly Porotherm na obvodové, vnútorné a akustické murivo.'),
      c('tvarnice', 'Tvárnice', 'Pórobetónové tvárnice Ytong s nízkou hmotnosťou a výbornou presnosťou.'),
      c('kominove-systemy', 'Komínové systémy', 'Keramické komínové systémy pre kotly na tuhé palivo aj plyn.'),
    ]),
    c('beton-a-cement', 'Betón a cement', 'Cementy a suché betónové zmesi vo vreciach aj na paletách.', [
      c('cement', 'Cement', 'Portlandské a zmesové cementy na betóny, malty a poterové zmesi.'),
      c('suche-betonove-zmesi', 'Suché betónové zmesi', 'Hotové suché zmesi: betón, murovacie malty a potery.'),
    ]),
    c('preklady-a-stropy', 'Preklady a stropy', 'Preklady nad otvory a stropné systémy.', [
      c('preklady', 'Preklady', 'Keramické a pórobetónové preklady v rôznych dĺžkach.'),
      c('stropne-systemy', 'Stropné systémy', 'Stropné vložky a nosníky na keramické stropy.'),
    ]),
  ]),
  c('suche-stavby', 'Suché stavby', 'Sadrokartón, sadrovláknité dosky, profily a príslušenstvo.', [
    c('sadrokarton', 'Sadrokartón', 'Sadrokartónové dosky, oceľové profily a spojovací materiál.', [
      c('sadrokartonove-dosky', 'Sadrokartónové dosky', 'Štandardné, protipožiarne a impregnované sadrokartónové dosky.'),
      c('profily-sdk', 'Profily pre sadrokartón', 'Pozinkované profily CW, UW, CD a UD pre priečky a podhľady.'),
      c('prislusenstvo-sdk', 'Príslušenstvo pre sadrokartón', 'Skrutky, tmely, pásky a závesy pre sadrokartónové systémy.'),
    ]),
    c('sadrovlaknite-dosky', 'Sadrovláknité dosky', 'Pevné sadrovláknité dosky na steny, podlahy a podkrovia.'),
  ]),
  c('izolacie', 'Izolácie', 'Tepelné izolácie a hydroizolácie pre novostavby aj rekonštrukcie.', [
    c('tepelne-izolacie', 'Tepelné izolácie', 'Minerálna vlna, fasádny aj extrudovaný polystyrén.', [
      c('mineralna-vlna', 'Minerálna vlna', 'Sklená a kamenná vlna do podkrovia, priečok a na fasády.'),
      c('polystyren', 'Polystyrén', 'Expandovaný polystyrén EPS na zatepľovanie fasád a podláh.'),
      c('extrudovany-polystyren', 'Extrudovaný polystyrén', 'XPS dosky na sokle, základy a obrátené strechy.'),
    ]),
    c('hydroizolacie', 'Hydroizolácie', 'Asfaltové pásy a hydroizolačné stierky.', [
      c('asfaltove-pasy', 'Asfaltové pásy', 'Asfaltové pásy proti vode a radónu na základy a ploché strechy.'),
      c('hydroizolacne-stierky', 'Hydroizolačné stierky', 'Stierky pod obklady v kúpeľniach, na balkóny a terasy.'),
    ]),
  ]),
  c('strechy', 'Strechy', 'Strešné krytiny, fólie a strešné okná.', [
    c('stresne-krytiny', 'Strešné krytiny', 'Betónové a pálené škridly pre šikmé strechy.', [
      c('betonove-skridly', 'Betónové škridly', 'Odolné betónové škridly Bramac s dlhou zárukou.'),
      c('palene-skridly', 'Pálené škridly', 'Keramické škridly Tondach z pálenej hliny.'),
    ]),
    c('stresne-folie', 'Strešné fólie', 'Difúzne a parozábranné fólie pre šikmé strechy.'),
    c('stresne-okna', 'Strešné okná', 'Strešné okná Velux a Fakro s lemovaním.'),
  ]),
  c('omietky-a-fasady', 'Omietky a fasády', 'Vnútorné omietky, zatepľovacie systémy a fasádne omietky.', [
    c('omietky', 'Omietky', 'Jadrové a štukové omietky na vnútorné aj vonkajšie steny.', [
      c('jadrove-omietky', 'Jadrové omietky', 'Vápenno-cementové a sadrové jadrové omietky na strojové aj ručné spracovanie.'),
      c('stukove-omietky', 'Štukové omietky', 'Jemné štukové omietky na hladké povrchy.'),
    ]),
    c('fasady', 'Fasády', 'Lepidlá, stierky a povrchové úpravy kontaktných zatepľovacích systémov.', [
      c('lepidla-a-stierky', 'Lepidlá a stierky', 'Lepiace a stierkové malty na polystyrén a minerálnu vlnu.'),
      c('fasadne-omietky', 'Fasádne omietky', 'Silikónové, silikátové a akrylátové tenkovrstvové omietky.'),
    ]),
  ]),
  c('farby-a-laky', 'Farby a laky', 'Interiérové a fasádne farby, laky a lazúry na drevo.', [
    c('interierove-farby', 'Interiérové farby', 'Umývateľné a oteruvzdorné maliarske farby.'),
    c('fasadne-farby', 'Fasádne farby', 'Farby na fasády odolné voči poveternostným vplyvom.'),
    c('laky-a-lazury', 'Laky a lazúry', 'Ochrana dreva v interiéri aj exteriéri.'),
  ]),
  c('dlazby-a-obklady', 'Dlažby a obklady', 'Keramické dlažby, obklady, lepidlá a škárovacie hmoty.', [
    c('dlazby', 'Dlažby', 'Keramické a gresové dlažby do interiéru aj na terasy.'),
    c('obklady', 'Obklady', 'Keramické obklady do kúpeľní a kuchýň.'),
    c('lepidla-a-skarovanie', 'Lepidlá a škárovanie', 'Všetko na lepenie a škárovanie obkladov a dlažieb.', [
      c('lepidla-na-obklady', 'Lepidlá na obklady', 'Flexibilné a štandardné cementové lepidlá.'),
      c('skarovacie-hmoty', 'Škárovacie hmoty', 'Farebné škárovacie malty do interiéru aj exteriéru.'),
    ]),
  ]),
  c('naradie', 'Náradie', 'Elektrické a ručné náradie pre remeselníkov aj kutilov.', [
    c('elektricke-naradie', 'Elektrické náradie', 'Akumulátorové a sieťové náradie Makita a Bosch.', [
      c('vrtacky-a-skrutkovace', 'Vŕtačky a skrutkovače', 'Aku skrutkovače, príklepové vŕtačky a vŕtacie kladivá.'),
      c('uhlove-brusky', 'Uhlové brúsky', 'Uhlové brúsky na rezanie a brúsenie kovu aj kameňa.'),
    ]),
    c('rucne-naradie', 'Ručné náradie', 'Murárske náradie a meradlá.', [
      c('murarske-naradie', 'Murárske náradie', 'Lyžice, hladidlá, stierky, vedrá a miešadlá.'),
      c('meradla', 'Meradlá', 'Vodováhy, metre a laserové meradlá.'),
    ]),
  ]),
  c('zahrada', 'Záhrada', 'Zámková dlažba, obrubníky a substráty pre záhradu.', [
    c('zamkova-dlazba', 'Zámková dlažba', 'Betónová zámková dlažba na chodníky, terasy a príjazdové cesty.'),
    c('obrubniky', 'Obrubníky', 'Záhradné a cestné obrubníky.'),
    c('substraty', 'Substráty a mulč', 'Záhradné substráty, kôra a mulč.'),
  ]),
  c('tmely-a-peny', 'Tmely a peny', 'Montážne peny, silikóny a tmely.', [
    c('montazne-peny', 'Montážne peny', 'Peny na osadenie okien a dverí a na vyplnenie škár.'),
    c('silikony-a-tmely', 'Silikóny a tmely', 'Sanitárne silikóny, akrylátové tmely a lepidlá.'),
  ]),
];
