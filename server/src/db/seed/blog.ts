export const BLOG_TAGS: Record<string, string> = {
  'hruba-stavba': 'Hrubá stavba',
  zateplenie: 'Zateplenie',
  strecha: 'Strecha',
  interier: 'Interiér',
  navody: 'Návody',
  zahrada: 'Záhrada',
  rekonstrukcia: 'Rekonštrukcia',
  naradie: 'Náradie',
};

export type BlogDraft = { slug: string; title: string; perex: string; paragraphs: string[]; tags: string[]; date: string };

export const BLOG_POSTS: BlogDraft[] = [
  {
    slug: 'ako-vybrat-tehlu-na-rodinny-dom',
    date: '2025-02-03',
    tags: ['hruba-stavba'],
    title: 'Ako vybrať tehlu na rodinný dom',
    perex: 'Hrúbka muriva, tepelný odpor a spôsob murovania: čo rozhoduje pri výbere tehly na obvodové steny.',
    paragraphs: [
      'Obvodové murivo rodinného domu dnes najčastejšie staviame z brúsených tehál hrúbky 38 až 44 cm. Pri hrúbke 44 cm a tehle plnenej minerálnou vlnou splníte požiadavky na nízkoenergetický dom aj bez zateplenia.',
      'Ak plánujete kontaktné zateplenie, stačí tehla hrúbky 25 až 30 cm a 15 až 20 cm izolácie. Takáto stena je tenšia, takže získate viac obytnej plochy.',
      'Murovanie na penu Dryfix zrýchli stavbu a nevnáša do muriva vodu. Pri klasickej tenkovrstvovej malte zasa oceníte nižšiu cenu.',
    ],
  },
  {
    slug: 'zateplenie-fasady-polystyren-alebo-vata',
    date: '2025-03-12',
    tags: ['zateplenie', 'rekonstrukcia'],
    title: 'Zateplenie fasády: polystyrén alebo minerálna vlna?',
    perex: 'Porovnali sme cenu, paropriepustnosť, požiarnu odolnosť aj náročnosť montáže oboch izolantov.',
    paragraphs: [
      'Fasádny polystyrén EPS 70 F je lacnejší a ľahko sa spracúva. Sivý polystyrén s grafitom izoluje o pätinu lepšie, na slnku ho však treba chrániť pred prehriatím.',
      'Minerálna vlna je nehorľavá a paropriepustná. Je povinná na budovách nad 22,5 m a vhodná na drevostavby a staré murivo s vlhkosťou.',
      'Pri oboch materiáloch rozhoduje kvalita lepidla, kotiev a výstužnej sieťky. Odporúčame kupovať celý systém od jedného výrobcu.',
    ],
  },
  {
    slug: 'sadrokartonova-priecka-krok-za-krokom',
    date: '2025-04-02',
    tags: ['interier', 'navody'],
    title: 'Sadrokartónová priečka krok za krokom',
    perex: 'Od vytýčenia profilov po tmelenie škár: postup, materiál a spotreba na 10 m² priečky.',
    paragraphs: [
      'Na podlahu a strop pripevnite profily UW s tesniacou páskou, do nich vložte profily CW v osovej vzdialenosti 625 mm.',
      'Dosky skrutkujte skrutkami TN 25 po 250 mm, spoje dosiek na oboch stranách priečky vystriedajte. Do dutiny vložte minerálnu vlnu pre lepšiu zvukovú izoláciu.',
      'Na 10 m² priečky s jednoduchým opláštením potrebujete približne 8 dosiek 1250 × 2000 mm, 8 profilov CW, 4 profily UW a 500 skrutiek.',
    ],
  },
  {
    slug: 'strecha-betonova-alebo-palena-skridla',
    date: '2025-04-28',
    tags: ['strecha'],
    title: 'Betónová alebo pálená škridla?',
    perex: 'Obe krytiny vydržia desiatky rokov. V čom sa líšia a ktorá sa hodí na váš dom?',
    paragraphs: [
      'Betónová škridla je pevná a cenovo dostupná, výrobcovia na ňu dávajú záruku až 30 rokov. Povrchová úprava Star spomaľuje rast machov.',
      'Pálená škridla je ľahšia, farebne stála a pôsobí tradične. Engobované a glazované povrchy vydržia bez zmeny farby celé desaťročia.',
      'Pri výbere myslite aj na sklon strechy a doplnky: hrebenáče, vetracie tašky a snehové zábrany musia patriť k rovnakému modelu.',
    ],
  },
  {
    slug: 'ako-spravne-betonovat-v-lete',
    date: '2025-06-10',
    tags: ['hruba-stavba', 'navody'],
    title: 'Ako správne betónovať v lete',
    perex: 'Vysoké teploty urýchľujú tuhnutie betónu. Poradíme, ako zabrániť trhlinám.',
    paragraphs: [
      'Betónujte ráno alebo večer, keď teplota klesne pod 25 °C. Debnenie a podklad pred betónovaním navlhčite.',
      'Čerstvý betón chráňte pred slnkom a vetrom fóliou alebo geotextíliou a aspoň 7 dní ho udržiavajte vlhký.',
      'Do betónovej zmesi nepridávajte viac vody, než predpisuje výrobca. Zníži sa tým pevnosť betónu aj jeho trvanlivosť.',
    ],
  },
  {
    slug: 'hydroizolacia-kupelne',
    date: '2025-07-07',
    tags: ['interier', 'rekonstrukcia', 'navody'],
    title: 'Hydroizolácia kúpeľne pod obklad',
    perex: 'Kde všade patrí hydroizolačná stierka a ako ju správne naniesť, aby voda nezatiekla do muriva.',
    paragraphs: [
      'Stierku naneste na celú podlahu kúpeľne a na steny v okolí vane a sprchy aspoň do výšky 2 m.',
      'Do rohov a spojov vložte tesniacu pásku, prestupy potrubí utesnite manžetami. Stierku nanášajte v dvoch vrstvách krížom.',
      'Obklad lepte flexibilným lepidlom až po úplnom vyschnutí stierky, spravidla po 24 hodinách.',
    ],
  },
  {
    slug: 'zamkova-dlazba-na-prijazdovu-cestu',
    date: '2025-08-19',
    tags: ['zahrada', 'navody'],
    title: 'Zámková dlažba na príjazdovú cestu',
    perex: 'Aké podložie, akú hrúbku dlažby a ako pokládku ukončiť obrubníkmi.',
    paragraphs: [
      'Pre osobné autá zvoľte dlažbu hrúbky 8 cm. Podklad tvorí 25 až 30 cm zhutneného štrku frakcie 0–32 a 3 až 5 cm drveného kameniva 4–8.',
      'Okraje plochy musia byť pevne ohraničené obrubníkmi uloženými do betónu, inak sa dlažba časom rozíde.',
      'Škáry vyplňte kremičitým pieskom a plochu zhutnite vibračnou doskou s gumenou podložkou.',
    ],
  },
  {
    slug: 'aku-naradie-na-stavbu',
    date: '2025-09-04',
    tags: ['naradie'],
    title: 'Aku náradie na stavbu: čo sa oplatí',
    perex: 'Skrutkovač, vŕtacie kladivo a uhlová brúska na jednu batériu. Ako si zostaviť sadu.',
    paragraphs: [
      'Najväčšou výhodou akumulátorového náradia je jeden systém batérií. Pri kúpe ďalšieho stroja vám stačí verzia bez batérie.',
      'Na murivo a betón zvoľte vŕtacie kladivo s upínaním SDS-plus. Príklepová vŕtačka je kompromis na občasné práce.',
      'Bezuhlíkové motory vydržia dlhšie a z jednej batérie urobia viac práce.',
    ],
  },
  {
    slug: 'malovanie-interieru-bez-stresu',
    date: '2025-09-30',
    tags: ['interier', 'navody'],
    title: 'Maľovanie interiéru bez stresu',
    perex: 'Koľko farby kúpiť, ako pripraviť steny a prečo na kvalite valčeka záleží.',
    paragraphs: [
      'Spotrebu vypočítate z plochy stien a stropov: vynásobte ju počtom náterov a vydeľte výdatnosťou farby.',
      'Pred maľovaním steny očistite, trhliny vytmeľte a savé podklady napenetrujte.',
      'Maľujte od stropu, vždy po celých plochách bez prerušenia, aby neostali viditeľné prechody.',
    ],
  },
  {
    slug: 'podkrovie-ako-ho-zateplit',
    date: '2025-10-15',
    tags: ['zateplenie', 'strecha'],
    title: 'Ako zatepliť podkrovie',
    perex: 'Izolácia medzi a pod krokvy, parozábrana a najčastejšie chyby pri montáži.',
    paragraphs: [
      'Odporúčaná hrúbka izolácie v šikmej streche je 30 cm: 20 cm medzi krokvy a 10 cm pod krokvy.',
      'Parozábranu spojte a napojte na steny tesniacou páskou. Každá netesnosť znamená riziko kondenzácie vo vnútri izolácie.',
      'Minerálnu vlnu režte o 1 až 2 cm širšiu, než je medzera medzi krokvami, aby dobre držala.',
    ],
  },
  {
    slug: 'rekonstrukcia-paneloveho-bytu',
    date: '2025-11-05',
    tags: ['rekonstrukcia', 'interier'],
    title: 'Rekonštrukcia panelového bytu: materiál na jednom mieste',
    perex: 'Jadro, priečky, podlahy a obklady. Zoznam materiálu na typický trojizbový byt.',
    paragraphs: [
      'Bytové jadro nahradíme murovaným z pórobetónových tvárnic hrúbky 100 mm alebo sadrokartónom s impregnovanými doskami.',
      'Na vyrovnanie podláh použite samonivelačnú hmotu, pod laminát položte podložku a parozábranu.',
      'Pripravíme vám cenovú ponuku na celý byt a materiál dovezieme naraz, vrátane vynesenia na poschodie.',
    ],
  },
];
