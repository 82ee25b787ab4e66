/**
 * More practical guides for the blog (tag "navody"), so the blog and its
 * busiest tag span more than one page. Product links point into the
 * catalog by URL.
 */
import type { BlogDraft } from './blog.ts';

const guide = (slug: string, date: string, title: string, perex: string, paragraphs: string[], tags: string[] = []): BlogDraft => ({
  slug,
  date,
  title,
  perex,
  paragraphs,
  tags: ['navody', ...tags],
});

export const BLOG_GUIDES: BlogDraft[] = [
  guide(
    'ako-namiesat-beton-v-miesacke',
    '2025-01-08',
    'Ako namiešať betón v miešačke',
    'Pomer cementu, piesku a vody, poradie plnenia a čas miešania.',
    [
      'Do bubna najskôr nalejte časť vody, potom pridajte štrkopiesok a cement. Zvyšok vody pridávajte postupne, kým nie je zmes rovnomerne vláčna.',
      'Na menšie práce sa oplatí hotová suchá zmes, napríklad <a href="/p/beton-baumit-b20">Betón Baumit B20</a>: stačí pridať vodu podľa návodu na vreci.',
    ],
    ['hruba-stavba'],
  ),
  guide(
    'rychle-kotvenie-stlpikov-plota',
    '2025-01-22',
    'Rýchle ukotvenie stĺpikov plota',
    'Stĺpik do betónu za jedno popoludnie.',
    [
      'Jamu vykopte do nezamŕzajúcej hĺbky, aspoň 80 cm. Na dno nasypte štrk, osaďte stĺpik a zafixujte ho latami.',
      'Rýchlotuhnúci <a href="/p/beton-baumit-rychly-blitz">Betón Baumit Blitz</a> sa zalieva vodou priamo v jame a stĺpik drží už o pár minút.',
    ],
    ['zahrada'],
  ),
  guide(
    'opravy-betonu-rychlotuhnucim-cementom',
    '2025-02-17',
    'Opravy betónu rýchlotuhnúcim cementom',
    'Diery, odštiepené hrany a kotvenie bez dlhého čakania.',
    [
      'Poškodené miesto očistite od prachu a uvoľnených častí a navlhčite ho. Suchý podklad by zo zmesi vytiahol vodu.',
      'Na drobné opravy sa hodí <a href="/p/cement-baumit-quick-rychlotuhnuci">rýchlotuhnúci cement Baumit Quick</a>; miešajte len toľko, koľko spracujete za pár minút.',
    ],
  ),
  guide(
    'ako-vybrat-aku-vrtacku',
    '2025-03-03',
    'Ako vybrať aku vŕtačku',
    'Napätie, krútiaci moment a batérie: na čo sa pozerať.',
    [
      'Na bežné skrutkovanie a vŕtanie do dreva stačí 18 V vŕtací skrutkovač. Do betónu potrebujete príklep alebo rovno vŕtacie kladivo.',
      'Ak už máte batérie jedného systému, držte sa ho. Napríklad <a href="/p/aku-vrtaci-skrutkovac-makita-ddf485">Makita DDF485</a> a <a href="/p/aku-vrtacie-kladivo-makita-dhr242">Makita DHR242</a> používajú rovnaké akumulátory.',
    ],
    ['naradie'],
  ),
  guide(
    'rezanie-dlazby-uhlovou-bruskou',
    '2025-03-25',
    'Rezanie dlažby uhlovou brúskou',
    'Bezpečne, rovno a bez vyštrbených hrán.',
    [
      'Použite diamantový kotúč určený na keramiku a rez veďte pomaly, bez tlaku. Dlažbu pevne upnite.',
      'Aku brúska ako <a href="/p/aku-uhlova-bruska-makita-dga504">Makita DGA504</a> nepotrebuje predlžovačku, takže sa s ňou dobre pracuje aj na dvore.',
    ],
    ['naradie', 'interier'],
  ),
  guide(
    'fasadna-farba-kedy-a-ako',
    '2025-05-05',
    'Fasádna farba: kedy a ako natierať',
    'Počasie, penetrácia a počet náterov.',
    [
      'Natierajte pri teplote od 5 do 25 °C, nie na priamom slnku ani pred dažďom. Podklad musí byť suchý a súdržný.',
      'Silikónové farby ako <a href="/p/fasadna-farba-ceresit-ct-48-silikonova">Ceresit CT 48</a> odpudzujú vodu a dlho držia čistý vzhľad.',
    ],
    ['rekonstrukcia'],
  ),
  guide(
    'silikatova-omietka-na-zateplenie',
    '2025-05-20',
    'Silikátová omietka na zateplený dom',
    'Prečo sa na minerálnu vlnu hodí paropriepustná omietka.',
    [
      'Zateplenie minerálnou vlnou potrebuje omietku, ktorá prepúšťa vodnú paru. Silikátové a silikónové omietky to spĺňajú.',
      'Zrnitosť 1,5 mm je dobrý kompromis medzi odolnosťou a vzhľadom, napríklad <a href="/p/fasadna-omietka-baumit-silikattop-1-5-mm">Baumit SilikatTop 1,5 mm</a>.',
    ],
    ['zateplenie'],
  ),
  guide(
    'spotreba-lepidla-na-obklad',
    '2025-06-23',
    'Koľko lepidla na obklad potrebujete',
    'Jednoduchý výpočet spotreby podľa zubového hladidla.',
    [
      'Spotreba závisí od veľkosti zubov hladidla: pri 6 mm rátajte okolo 2,5 kg na m², pri 8 mm okolo 3,5 kg na m².',
      'K výsledku pripočítajte 10 % rezervu na nerovnosti a straty pri miešaní.',
    ],
    ['interier'],
  ),
  guide(
    'priprava-podkladu-pred-obkladom',
    '2025-07-21',
    'Príprava podkladu pred obkladom',
    'Rovnosť, penetrácia a hydroizolácia.',
    [
      'Podklad skontrolujte dvojmetrovou latou; nerovnosti nad 3 mm vyrovnajte stierkou.',
      'Savé podklady napenetrujte, aby lepidlo nevyschlo skôr, než dlaždicu osadíte.',
    ],
    ['interier'],
  ),
  guide(
    'zimna-ochrana-stavby',
    '2025-10-27',
    'Ako pripraviť rozostavanú stavbu na zimu',
    'Zakrytie muriva, odvodnenie a ochrana materiálu.',
    [
      'Koruny múrov zakryte fóliou, aby do nich nezatekala voda a v mraze ich nepoškodila.',
      'Vrecovaný materiál skladujte na paletách pod strechou; cement aj lepidlá vlhkosť znehodnotí.',
    ],
    ['hruba-stavba'],
  ),
  guide(
    'sokel-a-sokelova-izolacia',
    '2025-11-12',
    'Sokel a soklová izolácia',
    'Ktorý materiál patrí k terénu a prečo.',
    [
      'Soklová časť fasády je namáhaná vodou a mrazom. Použite extrudovaný polystyrén alebo soklové dosky s nízkou nasiakavosťou.',
      'Izoláciu ťahajte aspoň 30 cm nad terén a chráňte ju mozaikovou alebo soklovou omietkou.',
    ],
    ['zateplenie'],
  ),
  guide(
    'vyber-skrutiek-do-sadrokartonu',
    '2025-11-18',
    'Aké skrutky do sadrokartónu',
    'Dĺžka, závit a rozostup skrutiek.',
    [
      'Do kovových profilov používajte skrutky s jemným závitom, do dreva s hrubým. Skrutka má presahovať dosku aspoň o 10 mm.',
      'Rozostup skrutiek na stenách je najviac 25 cm, na stropoch 17 cm.',
    ],
    ['interier'],
  ),
  guide(
    'udrzba-zamkovej-dlazby',
    '2025-11-19',
    'Údržba zámkovej dlažby',
    'Čistenie, doplnenie škár a ochrana pred machom.',
    [
      'Raz za rok dlažbu umyte tlakovou vodou a škáry doplňte suchým pieskom alebo škárovacou maltou.',
      'Na tienistých miestach pomôže impregnácia, ktorá spomalí rast machu a rias.',
    ],
    ['zahrada'],
  ),
  guide(
    'bezpecnost-pri-praci-vo-vyskach',
    '2025-11-20',
    'Bezpečnosť pri práci vo výškach',
    'Lešenie, rebríky a osobné ochranné pomôcky.',
    [
      'Rebrík je na krátke práce; na dlhšie práce vo výške postavte lešenie so zábradlím.',
      'Prilba, rukavice a pevná obuv sú samozrejmosťou, pri rezaní aj okuliare a chrániče sluchu.',
    ],
    ['strecha'],
  ),
];
