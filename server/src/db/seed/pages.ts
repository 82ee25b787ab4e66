import type { NewPage } from '../content.table.ts';

const UPDATED_AT = '2025-11-01T08:00:00.000Z';

/** Static pages; HTML written by us, so it is sanitised by construction (no scripts, no inline handlers). */
export const PAGES: Omit<NewPage, 'updated_at'>[] = [
  {
    slug: 'kontakt',
    title: 'Kontakt',
    meta_description: 'Kontakt na Stavebniny Domov v Žiline: adresa predajne, otváracie hodiny, telefón a e-mail.',
    content_html: `
<p>Radi vám poradíme s výberom materiálu, spočítame spotrebu a pripravíme cenovú ponuku na celú stavbu.</p>
<h2>Predajňa a sklad</h2>
<address>Stavebniny Domov s.r.o.<br>Priemyselná 12<br>010 01 Žilina</address>
<h2>Telefón a e-mail</h2>
<ul>
  <li>Predajňa: <a href="tel:+421415551234">+421 41 555 12 34</a></li>
  <li>Objednávky z e-shopu: <a href="mailto:obchod@example.sk">obchod@example.sk</a></li>
  <li>Reklamácie: <a href="mailto:reklamacie@example.sk">reklamacie@example.sk</a></li>
</ul>
<h2>Fakturačné údaje</h2>
<p>Stavebniny Domov s.r.o., Priemyselná 12, 010 01 Žilina<br>IČO: 51234567, DIČ: 2120123456, IČ DPH: SK2120123456<br>
Zapísaná v Obchodnom registri Okresného súdu Žilina, oddiel Sro, vložka č. 71234/L.</p>`,
  },
  {
    slug: 'ochrana-sukromia',
    title: 'Ochrana osobných údajov',
    meta_description: 'Ako Stavebniny Domov spracúvajú osobné údaje zákazníkov a aké práva máte podľa GDPR.',
    content_html: `
<p>Prevádzkovateľom je spoločnosť Stavebniny Domov s.r.o., Priemyselná 12, 010 01 Žilina, IČO 51234567.
Osobné údaje spracúvame v súlade s nariadením (EÚ) 2016/679 (GDPR) a zákonom č. 18/2018 Z. z.</p>
<h2>Aké údaje spracúvame</h2>
<ul>
  <li>meno, priezvisko, adresu doručenia a fakturačnú adresu,</li>
  <li>e-mail a telefónne číslo,</li>
  <li>údaje o objednávkach a platbách,</li>
  <li>technické údaje o návšteve stránky (cookies), ak ste s nimi súhlasili.</li>
</ul>
<h2>Na aký účel</h2>
<p>Údaje používame na vybavenie objednávky a reklamácie (plnenie zmluvy), na vedenie účtovníctva (zákonná povinnosť)
a so súhlasom aj na zasielanie noviniek a meranie návštevnosti.</p>
<h2>Ako dlho</h2>
<p>Údaje o objednávkach uchovávame 10 rokov podľa zákona o účtovníctve, údaje zákazníckeho účtu do jeho zrušenia
a súhlas s newslettrom do jeho odvolania.</p>
<h2>Vaše práva</h2>
<p>Máte právo na prístup k údajom, ich opravu, vymazanie, obmedzenie spracúvania, prenosnosť a právo namietať.
Súhlas môžete kedykoľvek odvolať e-mailom na <a href="mailto:gdpr@example.sk">gdpr@example.sk</a>.
Sťažnosť môžete podať Úradu na ochranu osobných údajov SR.</p>
<h2>Cookies</h2>
<p>Technické cookies sú nevyhnutné na fungovanie košíka a prihlásenia. Analytické a reklamné cookies používame len s vaším súhlasom,
ktorý môžete zmeniť v nastaveniach cookies v päte stránky.</p>`,
  },
  {
    slug: 'vernostny-program',
    title: 'Vernostný program Domov Klub',
    meta_description: 'Vernostný program Domov Klub: zbierajte body za každý nákup a získajte zľavy na stavebný materiál.',
    content_html: `
<p>Stavajte výhodnejšie. Každý registrovaný zákazník je automaticky členom programu Domov Klub.</p>
<h2>Ako to funguje</h2>
<ol>
  <li>Za každé 1 € s DPH získate 1 bod.</li>
  <li>Za 500 bodov vám pošleme zľavový kupón v hodnote 10 €.</li>
  <li>Body platia 24 mesiacov od nákupu.</li>
</ol>
<h2>Úrovne členstva</h2>
<table>
  <thead><tr><th>Úroveň</th><th>Nákupy za 12 mesiacov</th><th>Výhoda</th></tr></thead>
  <tbody>
    <tr><td>Bronz</td><td>do 1 000 €</td><td>1 bod za 1 €</td></tr>
    <tr><td>Striebro</td><td>1 000 – 5 000 €</td><td>1,5 bodu za 1 € a doprava paletou so zľavou 20 %</td></tr>
    <tr><td>Zlato</td><td>nad 5 000 €</td><td>2 body za 1 €, osobný poradca a cenové ponuky do 24 hodín</td></tr>
  </tbody>
</table>
<p>Body sa pripisujú po prevzatí tovaru. Podrobné podmienky nájdete v <a href="/s/obchodne-podmienky">obchodných podmienkach</a>.</p>`,
  },
  {
    slug: 'obchodne-podmienky',
    title: 'Obchodné podmienky',
    meta_description: 'Všeobecné obchodné podmienky internetového obchodu Stavebniny Domov.',
    content_html: `
<h2>1. Úvodné ustanovenia</h2>
<p>Tieto obchodné podmienky upravujú vzťahy medzi predávajúcim Stavebniny Domov s.r.o., Priemyselná 12, 010 01 Žilina,
IČO 51234567, a kupujúcim pri predaji tovaru prostredníctvom internetového obchodu.</p>
<h2>2. Objednávka a uzavretie zmluvy</h2>
<p>Kúpna zmluva vzniká potvrdením objednávky e-mailom. Ceny sú uvedené v eurách vrátane DPH.
Pri tovare na objednávku vás o termíne dodania informujeme do 2 pracovných dní.</p>
<h2>3. Platobné podmienky</h2>
<p>Tovar môžete zaplatiť platobnou kartou, bankovým prevodom, na dobierku alebo v hotovosti pri osobnom odbere.</p>
<h2>4. Dodacie podmienky</h2>
<p>Balíky doručujeme kuriérom do 2 až 4 pracovných dní, paletový tovar vlastnou dopravou podľa dohody.
Podrobnosti nájdete na stránke <a href="/doprava-a-platba">Doprava a platba</a>.</p>
<h2>5. Odstúpenie od zmluvy</h2>
<p>Spotrebiteľ môže odstúpiť od zmluvy bez udania dôvodu do 14 dní od prevzatia tovaru. Tovar musí byť nepoškodený
a v pôvodnom obale. Náklady na vrátenie tovaru znáša kupujúci. Právo na odstúpenie sa nevzťahuje na tovar miešaný
alebo delený na želanie kupujúceho (tónované farby, rezaný materiál).</p>
<h2>6. Záverečné ustanovenia</h2>
<p>Tieto podmienky sú platné od 1. 11. 2025. Spory je možné riešiť aj alternatívne cez platformu RSO.</p>`,
  },
  {
    slug: 'reklamacny-poriadok',
    title: 'Reklamačný poriadok',
    meta_description: 'Reklamačný poriadok Stavebniny Domov: záručná doba, postup reklamácie a lehoty vybavenia.',
    content_html: `
<h2>Záručná doba</h2>
<p>Na tovar poskytujeme záruku 24 mesiacov od prevzatia, ak výrobca neposkytuje dlhšiu záruku (napríklad na strešné krytiny).</p>
<h2>Ako reklamovať</h2>
<ol>
  <li>Reklamáciu uplatníte v zákazníckom účte v časti Reklamácie, e-mailom alebo osobne na predajni.</li>
  <li>Uveďte číslo objednávky, popis vady a priložte fotografie.</li>
  <li>Poškodenie zásielky pri preprave spíšte s kuriérom pri preberaní.</li>
</ol>
<h2>Lehoty</h2>
<p>Reklamáciu vybavíme bez zbytočného odkladu, najneskôr do 30 dní od jej uplatnenia. O výsledku vás budeme informovať e-mailom.</p>
<h2>Spôsoby vybavenia</h2>
<p>Oprávnenú reklamáciu vybavíme výmenou tovaru, opravou, primeranou zľavou alebo vrátením kúpnej ceny.</p>`,
  },
  {
    slug: 'doprava-a-platba',
    title: 'Doprava a platba',
    meta_description: 'Možnosti dopravy a platby v Stavebniny Domov: osobný odber, kuriér, paletová doprava.',
    content_html: `
<h2>Doprava</h2>
<table>
  <thead><tr><th>Spôsob</th><th>Cena s DPH</th><th>Poznámka</th></tr></thead>
  <tbody>
    <tr><td>Osobný odber na predajni v Žiline</td><td>zadarmo</td><td>tovar pripravíme do 2 hodín</td></tr>
    <tr><td>Kuriér (balík do 30 kg)</td><td>5,90 €</td><td>zadarmo pri nákupe nad 150 €</td></tr>
    <tr><td>Paletová preprava po Slovensku</td><td>49 €</td><td>za paletu, vyloženie hydraulickou rukou</td></tr>
    <tr><td>Vlastná doprava s hydraulickou rukou do 50 km</td><td>39 €</td><td>zadarmo pri nákupe nad 1 500 €</td></tr>
  </tbody>
</table>
<h2>Platba</h2>
<ul>
  <li><strong>Platobnou kartou online</strong> – zadarmo, platba prebehne hneď.</li>
  <li><strong>Bankovým prevodom</strong> – zadarmo, tovar odošleme po pripísaní platby.</li>
  <li><strong>Na dobierku</strong> – 1,50 €, len pri doručení kuriérom.</li>
  <li><strong>V hotovosti alebo kartou na predajni</strong> – pri osobnom odbere.</li>
</ul>
<p>Pri paletovom tovare si vratné palety odkúpime späť za 8 € bez DPH do 6 mesiacov od nákupu.</p>`,
  },
];

export const PAGES_UPDATED_AT = UPDATED_AT;
