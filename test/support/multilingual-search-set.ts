/**
 * A judged multilingual search set: artifacts in ten languages, and queries a person of each language
 * would type, each with the artifacts it should find (labelled by hand from what each text says, before
 * any search was run; never from Cairn's answers). The texts were written for this set (short news-like
 * paragraphs on energy, transport, food and weather, so that a language's artifacts share words and a
 * search can find too much as well as too little).
 *
 * `heldOut` queries were written with the others and never looked at while the way queries are read
 * (src/domain/research/search-query.ts) was chosen: their figures are printed on their own.
 * Used by test/workers/search-words.test.ts and `npm run bench:search:languages`.
 */
export type Language = "ja" | "zh" | "ko" | "th" | "de" | "fr" | "es" | "ru" | "ar" | "he";

export interface JudgedArtifact {
  key: string;
  language: Language;
  title: string;
  text: string;
}

export interface JudgedQuery {
  language: Language;
  query: string;
  /** Keys of the artifacts a person asking this expects (any order). */
  relevant: string[];
  heldOut?: true;
}

export const LANGUAGES: Record<Language, string> = {
  ja: "Japanese",
  zh: "Chinese",
  ko: "Korean",
  th: "Thai",
  de: "German",
  fr: "French",
  es: "Spanish",
  ru: "Russian",
  ar: "Arabic",
  he: "Hebrew",
};

export const JUDGED_ARTIFACTS: JudgedArtifact[] = [
  { key: "ja-weather", language: "ja", title: "東京の天気", text: "東京の天気は晴れです。明日は午後から雨が降る予報です。" },
  { key: "ja-tidal", language: "ja", title: "潮力発電の実証実験", text: "長崎県の沖合で潮力発電の実証実験が始まった。潮の流れで水車を回し、年間約三百世帯分の電力をまかなう計画だ。" },
  { key: "ja-battery", language: "ja", title: "全固体電池の量産", text: "自動車メーカー各社は全固体電池の量産に向けて工場を建設している。充電時間は現在のリチウムイオン電池の半分になるという。" },
  { key: "ja-quake", language: "ja", title: "木造住宅の耐震化", text: "古い木造住宅の耐震補強には国や自治体の補助金が使える。耐震診断は無料で受けられる場合が多い。" },
  { key: "ja-rice", language: "ja", title: "新米の値上がり", text: "猛暑の影響で新米の収穫量が減り、スーパーでの米の販売価格が前年より二割上がった。" },
  { key: "ja-solar", language: "ja", title: "屋根の太陽光パネル", text: "住宅の屋根に太陽光パネルを設置すると、昼間の電気代を大幅に減らせる。余った電力は電力会社に売ることができる。" },

  { key: "zh-tidal", language: "zh", title: "潮汐能发电", text: "潮汐能发电的前景很好。浙江的试验电站已经连续运行十年，每年发电约六百万千瓦时。" },
  { key: "zh-ev", language: "zh", title: "电动汽车充电桩", text: "城市里的充电桩数量快速增长，但老旧小区的停车位仍然很难安装。" },
  { key: "zh-tea", language: "zh", title: "龙井茶的采摘", text: "每年清明前后是龙井茶采摘的最佳时间，明前茶的价格最高。" },
  { key: "zh-air", language: "zh", title: "空气污染治理", text: "北京通过关闭燃煤电厂和推广天然气取暖，使冬季的空气质量明显改善。" },
  { key: "zh-rail", language: "zh", title: "高速铁路网络", text: "中国的高速铁路总里程已经超过四万公里，连接了几乎所有的省会城市。" },
  { key: "zh-wind", language: "zh", title: "海上风电", text: "广东沿海正在建设大型海上风电场，风机单机容量达到十六兆瓦。" },

  { key: "ko-tidal", language: "ko", title: "조력 발전의 전망", text: "시화호 조력 발전소는 세계 최대 규모의 조력 발전소로, 매년 약 5억 킬로와트시의 전기를 생산한다." },
  { key: "ko-kimchi", language: "ko", title: "김장 문화", text: "김장은 겨울을 앞두고 많은 양의 김치를 담그는 한국의 전통 문화이다." },
  { key: "ko-chips", language: "ko", title: "반도체 수출 증가", text: "올해 반도체 수출이 크게 늘어 전체 수출의 5분의 1을 차지했다." },
  { key: "ko-subway", language: "ko", title: "서울 지하철 요금 인상", text: "서울시는 지하철 기본요금을 150원 인상하기로 결정했다." },
  { key: "ko-solar", language: "ko", title: "농촌 태양광 사업", text: "농촌 지역에 태양광 발전소를 건설하는 사업이 주민들의 반대로 지연되고 있다." },
  { key: "ko-typhoon", language: "ko", title: "남해안 태풍 피해", text: "이번 태풍으로 남해안 지역의 양식장과 농작물이 큰 피해를 입었다." },

  { key: "th-rice", language: "th", title: "การส่งออกข้าว", text: "ประเทศไทยส่งออกข้าวมากเป็นอันดับสองของโลก" },
  { key: "th-solar", language: "th", title: "พลังงานแสงอาทิตย์", text: "โรงไฟฟ้าพลังงานแสงอาทิตย์ในภาคตะวันออกผลิตไฟฟ้าได้มากขึ้น" },

  { key: "de-battery", language: "de", title: "Batteriezellen aus Europa", text: "Die neue Fabrik in Schweden fertigt Batteriezellen für Elektroautos. Die Zellchemie kommt ohne Kobalt aus." },
  { key: "de-heatpump", language: "de", title: "Wärmepumpen im Altbau", text: "Auch in unsanierten Altbauten arbeiten Wärmepumpen effizient, wenn die Heizkörper groß genug sind." },
  { key: "de-wind", language: "de", title: "Windkraftanlagen auf See", text: "Die Windkraftanlagen in der Nordsee lieferten im Winter mehr Strom als alle Kohlekraftwerke zusammen." },
  { key: "de-rail", language: "de", title: "Bahnstreik legt Fernverkehr lahm", text: "Wegen des Streiks der Lokführer fielen am Montag neun von zehn Fernzügen aus." },
  { key: "de-storage", language: "de", title: "Energiespeicher für Haushalte", text: "Ein Heimspeicher hebt den Solarstrom vom Dach für den Abend auf. Die Speicherkapazität liegt meist bei zehn Kilowattstunden." },
  { key: "de-bread", language: "de", title: "Brotpreise steigen", text: "Bäckereien erhöhen die Preise, weil Mehl und Energie teurer geworden sind." },

  { key: "fr-nuclear", language: "fr", title: "Le parc nucléaire français", text: "Les centrales nucléaires ont produit près de 65 % de l'électricité française l'an dernier, après la réparation des réacteurs touchés par la corrosion." },
  { key: "fr-wine", language: "fr", title: "Vendanges précoces en Bourgogne", text: "La chaleur de l'été a avancé les vendanges de deux semaines dans les vignobles bourguignons." },
  { key: "fr-housing", language: "fr", title: "Rénovation énergétique des logements", text: "Les propriétaires de passoires thermiques doivent isoler leurs logements avant de pouvoir les louer." },
  { key: "fr-train", language: "fr", title: "Le retour des trains de nuit", text: "La ligne de train de nuit entre Paris et Nice a retrouvé ses voyageurs depuis sa réouverture." },
  { key: "fr-waves", language: "fr", title: "L'énergie des vagues", text: "Un prototype au large de la Bretagne transforme l'énergie des vagues en électricité." },

  { key: "es-solar", language: "es", title: "Plantas solares en Extremadura", text: "Extremadura concentra las mayores plantas fotovoltaicas de España, con más de cinco gigavatios instalados." },
  { key: "es-drought", language: "es", title: "Sequía en Cataluña", text: "Los embalses catalanes están al veinte por ciento de su capacidad y el gobierno ha restringido el riego." },
  { key: "es-olive", language: "es", title: "Precio del aceite de oliva", text: "El precio del aceite de oliva se duplicó tras dos cosechas malas por la falta de lluvia." },
  { key: "es-tourism", language: "es", title: "Turismo récord", text: "España recibió más de ochenta millones de turistas internacionales el año pasado." },
  { key: "es-hydrogen", language: "es", title: "Hidrógeno verde", text: "Varias empresas planean producir hidrógeno verde con electrolizadores alimentados por energía solar." },

  { key: "ru-gas", language: "ru", title: "Экспорт газа", text: "Экспорт природного газа в Европу сократился почти в пять раз за два года." },
  { key: "ru-arctic", language: "ru", title: "Северный морской путь", text: "Грузоперевозки по Северному морскому пути выросли благодаря ледоколам нового поколения." },
  { key: "ru-wheat", language: "ru", title: "Урожай пшеницы", text: "Россия собрала рекордный урожай пшеницы и остаётся крупнейшим экспортёром зерна." },
  { key: "ru-hydro", language: "ru", title: "Гидроэлектростанции Сибири", text: "Сибирские гидроэлектростанции обеспечивают дешёвой энергией алюминиевые заводы." },
  { key: "ru-metro", language: "ru", title: "Московское метро", text: "В московском метро открыли новую кольцевую линию длиной семьдесят километров." },

  { key: "ar-solar", language: "ar", title: "الطاقة الشمسية في المغرب", text: "تعد محطة نور في ورزازات من أكبر محطات الطاقة الشمسية المركزة في العالم." },
  { key: "ar-water", language: "ar", title: "تحلية مياه البحر", text: "تعتمد دول الخليج على محطات تحلية مياه البحر لتوفير مياه الشرب." },
  { key: "ar-dates", language: "ar", title: "زراعة النخيل", text: "تنتج المملكة العربية السعودية أكثر من مليون طن من التمور سنويا." },
  { key: "ar-metro", language: "ar", title: "مترو الرياض", text: "افتتح مترو الرياض ستة خطوط تربط أحياء المدينة بالمطار." },
  { key: "ar-oil", language: "ar", title: "أسعار النفط", text: "ارتفعت أسعار النفط بعد قرار خفض الإنتاج." },

  { key: "he-desal", language: "he", title: "התפלת מי ים", text: "ישראל מפיקה את רוב מי השתייה שלה במתקני התפלה לאורך החוף." },
  { key: "he-solar", language: "he", title: "אנרגיה סולארית בנגב", text: "בנגב הוקמה תחנת כוח סולארית גדולה שמספקת חשמל לעשרות אלפי בתים." },
  { key: "he-startup", language: "he", title: "חברות הזנק", text: "חברות ההזנק בתל אביב גייסו השנה פחות הון מאשר בשנה שעברה." },
  { key: "he-train", language: "he", title: "הרכבת לירושלים", text: "הרכבת המהירה מתל אביב לירושלים מקצרת את הנסיעה לחצי שעה." },
  { key: "he-citrus", language: "he", title: "ייצוא פירות הדר", text: "ייצוא התפוזים מישראל ירד בגלל עלויות המים והעבודה." },
];

export const JUDGED_QUERIES: JudgedQuery[] = [
  { language: "ja", query: "天気", relevant: ["ja-weather"] },
  { language: "ja", query: "潮力発電", relevant: ["ja-tidal"] },
  { language: "ja", query: "電池の量産", relevant: ["ja-battery"] },
  { language: "ja", query: "太陽光", relevant: ["ja-solar"] },
  { language: "ja", query: "電力", relevant: ["ja-tidal", "ja-solar"] },
  { language: "ja", query: "耐震", relevant: ["ja-quake"], heldOut: true },
  { language: "ja", query: "米の価格", relevant: ["ja-rice"], heldOut: true },

  { language: "zh", query: "发电", relevant: ["zh-tidal"] },
  { language: "zh", query: "充电桩", relevant: ["zh-ev"] },
  { language: "zh", query: "龙井茶", relevant: ["zh-tea"] },
  { language: "zh", query: "风电", relevant: ["zh-wind"] },
  { language: "zh", query: "空气质量", relevant: ["zh-air"], heldOut: true },
  { language: "zh", query: "高速铁路", relevant: ["zh-rail"], heldOut: true },

  { language: "ko", query: "발전", relevant: ["ko-tidal", "ko-solar"] },
  { language: "ko", query: "김치", relevant: ["ko-kimchi"] },
  { language: "ko", query: "반도체", relevant: ["ko-chips"] },
  { language: "ko", query: "지하철 요금", relevant: ["ko-subway"] },
  { language: "ko", query: "태풍", relevant: ["ko-typhoon"], heldOut: true },
  { language: "ko", query: "수출", relevant: ["ko-chips"], heldOut: true },

  { language: "th", query: "ข้าว", relevant: ["th-rice"] },
  { language: "th", query: "ไฟฟ้า", relevant: ["th-solar"], heldOut: true },

  { language: "de", query: "Batterie", relevant: ["de-battery"] },
  { language: "de", query: "Wärmepumpe", relevant: ["de-heatpump"] },
  { language: "de", query: "Windkraft", relevant: ["de-wind"] },
  { language: "de", query: "Energie", relevant: ["de-storage", "de-bread"] },
  { language: "de", query: "Streik", relevant: ["de-rail"] },
  { language: "de", query: "Kohle", relevant: ["de-wind"], heldOut: true },
  { language: "de", query: "Zellen", relevant: ["de-battery"], heldOut: true },

  { language: "fr", query: "électricité", relevant: ["fr-nuclear", "fr-waves"] },
  { language: "fr", query: "vendanges", relevant: ["fr-wine"] },
  { language: "fr", query: "logement", relevant: ["fr-housing"] },
  { language: "fr", query: "réacteurs nucléaires", relevant: ["fr-nuclear"], heldOut: true },
  { language: "fr", query: "train de nuit", relevant: ["fr-train"], heldOut: true },

  { language: "es", query: "fotovoltaica", relevant: ["es-solar"] },
  { language: "es", query: "sequía", relevant: ["es-drought"] },
  { language: "es", query: "aceite de oliva", relevant: ["es-olive"] },
  { language: "es", query: "solar", relevant: ["es-solar", "es-hydrogen"] },
  { language: "es", query: "turistas", relevant: ["es-tourism"], heldOut: true },
  { language: "es", query: "hidrógeno", relevant: ["es-hydrogen"], heldOut: true },

  { language: "ru", query: "экспорт газа", relevant: ["ru-gas"] },
  { language: "ru", query: "урожай пшеницы", relevant: ["ru-wheat"] },
  { language: "ru", query: "ледокол", relevant: ["ru-arctic"] },
  { language: "ru", query: "гидроэлектростанция", relevant: ["ru-hydro"] },
  { language: "ru", query: "метро", relevant: ["ru-metro"], heldOut: true },
  { language: "ru", query: "пшеница", relevant: ["ru-wheat"], heldOut: true },

  { language: "ar", query: "طاقة شمسية", relevant: ["ar-solar"] },
  { language: "ar", query: "تحلية المياه", relevant: ["ar-water"] },
  { language: "ar", query: "النفط", relevant: ["ar-oil"] },
  { language: "ar", query: "التمور", relevant: ["ar-dates"], heldOut: true },
  { language: "ar", query: "مترو", relevant: ["ar-metro"], heldOut: true },

  { language: "he", query: "התפלה", relevant: ["he-desal"] },
  { language: "he", query: "חשמל", relevant: ["he-solar"] },
  { language: "he", query: "רכבת", relevant: ["he-train"] },
  { language: "he", query: "הזנק", relevant: ["he-startup"], heldOut: true },
  { language: "he", query: "תפוזים", relevant: ["he-citrus"], heldOut: true },
];

export interface QueryOutcome {
  query: JudgedQuery;
  /** Keys of the artifacts found, best first (at most five). */
  found: string[];
}

export interface LanguageFigures {
  label: string;
  queries: number;
  /** Relevant artifacts found in the first five, over all relevant ones. */
  recallAt5: number;
  /** Relevant artifacts among those found in the first five, over all found. */
  precisionAt5: number;
  misses: string[];
}

/** Recall@5 and precision@5 of a group of outcomes (micro-averaged over the relevant and found artifacts). */
export function figuresOf(label: string, outcomes: QueryOutcome[]): LanguageFigures {
  let relevant = 0;
  let relevantFound = 0;
  let found = 0;
  const misses: string[] = [];
  for (const { query, found: keys } of outcomes) {
    const top = keys.slice(0, 5);
    const hits = query.relevant.filter((key) => top.includes(key)).length;
    relevant += query.relevant.length;
    relevantFound += hits;
    found += top.length;
    if (hits < query.relevant.length) misses.push(query.query);
  }
  return { label, queries: outcomes.length, recallAt5: relevant ? relevantFound / relevant : 1, precisionAt5: found ? relevantFound / found : 1, misses };
}
