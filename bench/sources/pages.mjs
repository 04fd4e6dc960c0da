/**
 * The pages of the judged set and the quotes written for each, by hand. A page is the visible text a
 * reader sees, typography included (curly quotation marks, dashes, non-breaking spaces before units,
 * soft hyphens and ligatures left by publishing tools, line breaks). Each page carries:
 *
 * - genuine: quotes faithful to the page, typed as an assistant would type them (straight marks,
 *   plain spaces); expected `verified`;
 * - altered: a quote of the page with one thing changed: a number, a negation added or dropped,
 *   a word swapped for another or two words exchanged; expected `partial` (most of it is there);
 * - omissions (some pages): quotes with an ellipsis over a negation, labelled by meaning: `flips`
 *   when leaving the negation out reverses what the sentence says (expected `partial`), `keeps`
 *   when the omitted clause is skipped whole and what is left is still true (expected `verified`);
 * - other: paraphrases and made-up sentences, each labelled with what the page supports: `partial`
 *   for a close paraphrase whose wording is mostly the page's, `not_found` for a loose one or
 *   content the page does not have.
 *
 * bench/sources/build-judged-set.mjs derives more cases from these (typographic variants, ellipses,
 * brackets, truncations, quotes from another page, very short quotes) and checks every label
 * against an independent reading of the page before writing judged-set.json.
 */

const NB = "\u00a0";
const SHY = "\u00ad";

export const PAGES = [
  {
    id: "lithium-prices",
    lang: "en",
    text:
      `Lithium carbonate prices fell by 72${NB}% over 2023, the steepest annual decline since the metal began trading on exchanges. ` +
      `Analysts at the consultancy said the slump reflected “a wave of new supply from Australian and African mines” rather than weaker demand. ` +
      `Global demand for lithium-ion batteries still grew by 31${NB}% to about 950 gigawatt-hours.\n` +
      `Several producers — including two in Western Australia — have since paused expansion projects, ` +
      `and one has placed its processing plant on care and maintenance. Prices are not expected to recover before 2026.`,
    genuine: [
      "Lithium carbonate prices fell by 72% over 2023, the steepest annual decline since the metal began trading on exchanges",
      'the slump reflected "a wave of new supply from Australian and African mines" rather than weaker demand',
      "Several producers - including two in Western Australia - have since paused expansion projects",
    ],
    altered: [
      ["number", "Global demand for lithium-ion batteries still grew by 13% to about 950 gigawatt-hours"],
      ["negation", "Prices are expected to recover before 2026"],
      ["word", "the slump reflected a wave of new supply from Australian and African mines rather than weaker prices"],
      ["order", "Lithium carbonate prices fell by 72% over 2023, the steepest decline annual since the metal began trading"],
    ],
    other: [
      ["partial", "lithium carbonate prices dropped by 72% during 2023, the steepest yearly decline since the metal began trading on exchanges"],
      ["not_found", "Battery makers responded to cheaper lithium by cutting the retail price of electric cars across Europe."],
    ],
  },
  {
    id: "malaria-vaccine",
    lang: "en",
    text:
      `In a phase 3 trial involving 4,800 children in Burkina Faso, Kenya, Mali and Tanzania, the R21 vaccine reduced clinical malaria cases by 75${NB}% in areas with seasonal transmission. ` +
      `The efficacy was lower — 68${NB}% — where the disease circulates all year. ` +
      `Researchers cautioned that the trial was not designed to measure an effect on deaths. ` +
      `The World Health Organization recommended the vaccine in October 2023, and the first doses were delivered to Côte d’Ivoire the following spring.`,
    genuine: [
      "the R21 vaccine reduced clinical malaria cases by 75% in areas with seasonal transmission",
      "Researchers cautioned that the trial was not designed to measure an effect on deaths.",
      "the first doses were delivered to Côte d'Ivoire the following spring",
    ],
    altered: [
      ["number", "In a phase 3 trial involving 8,400 children in Burkina Faso, Kenya, Mali and Tanzania"],
      ["negation", "Researchers cautioned that the trial was designed to measure an effect on deaths"],
      ["word", "The World Health Organization approved the vaccine in October 2023"],
      ["number", "The efficacy was lower - 86% - where the disease circulates all year"],
    ],
    omissions: [["flips", "Researchers cautioned that the trial was … designed to measure an effect on deaths"]],
    other: [
      ["partial", "the R21 vaccine cut clinical malaria cases by 75% in regions with seasonal transmission"],
      ["not_found", "The vaccine requires four doses and costs less than four dollars per dose."],
    ],
  },
  {
    id: "city-cycling",
    lang: "en",
    text:
      `Bicycle trips in the city rose from 1.2${NB}million in 2019 to 2.1${NB}million in 2023, according to counters installed on 40 streets. ` +
      `The council attributes most of the growth to the protected lanes built during the pandemic, which now total 62${NB}kilometres. ` +
      `“People cycle when they feel safe, not when they are told to,” the deputy mayor said at the network’s opening. ` +
      `Car traffic on the same streets fell by 11${NB}%, while bus journey times were unchanged.`,
    genuine: [
      "Bicycle trips in the city rose from 1.2 million in 2019 to 2.1 million in 2023",
      "People cycle when they feel safe, not when they are told to,",
      "the protected lanes built during the pandemic, which now total 62 kilometres",
    ],
    altered: [
      ["number", "Car traffic on the same streets fell by 17%, while bus journey times were unchanged"],
      ["negation", "People cycle when they feel safe, when they are told to"],
      ["word", "Car traffic on the same streets fell by 11%, while bus journey times were shorter"],
      ["number", "according to counters installed on 14 streets"],
    ],
    other: [
      ["partial", "bike trips in the city grew from 1.2 million in 2019 to 2.1 million in 2023, according to counters on 40 streets"],
      ["not_found", "Cyclist injuries doubled after the new lanes opened, the police report shows."],
    ],
  },
  {
    id: "coral-bleaching",
    lang: "en",
    text:
      `Between February 2023 and April 2024, bleaching-level heat stress affected 54${NB}% of the world’s coral reef area, ` +
      `the U.S. National Oceanic and Atmospheric Administration reported. It is the fourth global bleaching event on record and the second in a decade. ` +
      `Bleached corals are not necessarily dead: they can recover if tem${SHY}peratures fall within weeks. ` +
      `But repeated events leave too little time for recovery, scientists warned, and some reefs in the Florida Keys lost more than 90${NB}% of their live coral.`,
    genuine: [
      "bleaching-level heat stress affected 54% of the world's coral reef area",
      "Bleached corals are not necessarily dead: they can recover if temperatures fall within weeks.",
      "It is the fourth global bleaching event on record and the second in a decade",
    ],
    altered: [
      ["number", "bleaching-level heat stress affected 45% of the world's coral reef area"],
      ["negation", "Bleached corals are necessarily dead: they cannot recover if temperatures fall within weeks"],
      ["word", "It is the third global bleaching event on record and the second in a decade"],
      ["order", "some reefs in the Florida Keys lost more than 90% of their coral live"],
    ],
    other: [
      ["partial", "heat stress at bleaching levels affected 54% of the world's coral reef area, NOAA reported"],
      ["not_found", "Coral restoration projects have replanted more than a million fragments since 2015."],
    ],
  },
  {
    id: "central-bank",
    lang: "en",
    text:
      `The central bank left its main policy rate unchanged at 4.25${NB}% on Thursday, the third consecutive meeting without a move. ` +
      `Seven of the nine members of the committee voted to hold; two preferred a cut of a quarter point. ` +
      `Inflation slowed to 2.6${NB}% in September from 3.1${NB}% in August, but services prices — which track wages closely — ` +
      `are still rising at almost 5${NB}% a year. “We are not yet confident that inflation will settle at target,” the governor told reporters.`,
    genuine: [
      "The central bank left its main policy rate unchanged at 4.25% on Thursday",
      "Seven of the nine members of the committee voted to hold; two preferred a cut of a quarter point.",
      "We are not yet confident that inflation will settle at target",
    ],
    altered: [
      ["number", "Inflation slowed to 2.6% in September from 3.4% in August"],
      ["negation", "We are now confident that inflation will settle at target"],
      ["word", "Seven of the nine members of the committee voted to hold; two preferred a hike of a quarter point"],
      ["number", "The central bank left its main policy rate unchanged at 4.5% on Thursday"],
    ],
    omissions: [
      ["flips", "We are … confident that inflation will settle at target"],
      ["flips", "yet confident that inflation will settle at target", "truncation-drops-negation"],
    ],
    other: [
      ["partial", "the central bank kept its main policy rate unchanged at 4.25% on Thursday, the third meeting in a row without a move"],
      ["not_found", "The bank also announced it would shrink its balance sheet faster next year."],
    ],
  },
  {
    id: "antarctic-ice",
    lang: "en",
    text:
      `Antarctic sea ice reached its winter maximum on 10 September at 16.96${NB}million square kilometres, ` +
      `about 1.5${NB}million square kilometres below the 1981–2010 average and the lowest since satellite records began in 1979. ` +
      `The shortfall is roughly the area of Alaska. Scientists at the National Snow and Ice Data Center said a single year ` +
      `does not establish a trend, but that the decline since 2016 “is something we have not seen before.”`,
    genuine: [
      "Antarctic sea ice reached its winter maximum on 10 September at 16.96 million square kilometres",
      "about 1.5 million square kilometres below the 1981-2010 average and the lowest since satellite records began in 1979",
      "The shortfall is roughly the area of Alaska.",
    ],
    altered: [
      ["number", "the lowest since satellite records began in 1978"],
      ["negation", "a single year does establish a trend"],
      ["word", "The shortfall is roughly the area of Texas."],
      ["number", "Antarctic sea ice reached its winter maximum on 19 September at 16.96 million square kilometres"],
    ],
    other: [
      ["partial", "Antarctic sea ice peaked on 10 September at 16.96 million square kilometres, the lowest since satellite records began in 1979"],
      ["not_found", "Arctic sea ice, by contrast, recovered to near its long-term average this year."],
    ],
  },
  {
    id: "remote-work",
    lang: "en",
    text:
      `A survey of 2,300 employers found that 58${NB}% now require staff in the office at least three days a week, up from 39${NB}% a year earlier. ` +
      `Fully remote positions made up 12${NB}% of job postings in the second quarter. ` +
      `Firms that tightened their rules did not report higher produc${SHY}tivity, the authors noted, but they did report higher staff turnover. ` +
      `Smaller companies were the least likely to change their policies.`,
    genuine: [
      "A survey of 2,300 employers found that 58% now require staff in the office at least three days a week",
      "Firms that tightened their rules did not report higher productivity",
      "Smaller companies were the least likely to change their policies.",
    ],
    altered: [
      ["number", "A survey of 3,200 employers found that 58% now require staff in the office"],
      ["negation", "Firms that tightened their rules did report higher productivity"],
      ["word", "Larger companies were the least likely to change their policies."],
      ["number", "Fully remote positions made up 21% of job postings in the second quarter"],
    ],
    omissions: [["keeps", "Firms that tightened their rules … did report higher staff turnover."]],
    other: [
      ["partial", "58% of employers now require staff in the office at least three days a week, up from 39% a year earlier"],
      ["not_found", "Most employees said they would accept a pay cut to keep working from home."],
    ],
  },
  {
    id: "heat-pumps",
    lang: "en",
    text:
      `Sales of heat pumps in Europe fell by 21${NB}% in 2024 to about 2.3${NB}million units, the ﬁrst decline in a decade, the industry association said. ` +
      `It blamed “policy uncertainty and the end of generous subsidies in Germany and Italy.” ` +
      `Gas boilers, by contrast, sold slightly more units than the year before. ` +
      `The association estimates that a heat pump in an average home uses three to four times less ﬁnal energy than a condensing boiler.`,
    genuine: [
      "Sales of heat pumps in Europe fell by 21% in 2024 to about 2.3 million units, the first decline in a decade",
      "policy uncertainty and the end of generous subsidies in Germany and Italy",
      "a heat pump in an average home uses three to four times less final energy than a condensing boiler",
    ],
    altered: [
      ["number", "Sales of heat pumps in Europe fell by 12% in 2024 to about 2.3 million units"],
      ["negation", "Gas boilers, by contrast, did not sell more units than the year before."],
      ["word", "policy uncertainty and the end of generous subsidies in Germany and France"],
      ["order", "a heat pump in an average home uses four to three times less final energy than a condensing boiler"],
    ],
    other: [
      ["partial", "heat pump sales in Europe fell by 21% in 2024 to about 2.3 million units, the first decline in ten years"],
      ["not_found", "Heat pumps now heat more than half of new homes built in Scandinavia."],
    ],
  },
  {
    id: "sleep-study",
    lang: "en",
    text:
      `Adults who slept fewer than six hours a night had a 20${NB}% higher risk of developing type 2 diabetes over the 12-year follow-up, ` +
      `even after the researchers accounted for diet and physical activity. The study followed 247,867 participants of the UK Biobank. ` +
      `A healthy diet did not offset the risk linked to short sleep. The authors stress that the study is observational ` +
      `and cannot show that short sleep causes diabetes.`,
    genuine: [
      "Adults who slept fewer than six hours a night had a 20% higher risk of developing type 2 diabetes",
      "The study followed 247,867 participants of the UK Biobank.",
      "A healthy diet did not offset the risk linked to short sleep.",
    ],
    altered: [
      ["number", "The study followed 247,687 participants of the UK Biobank."],
      ["negation", "A healthy diet did offset the risk linked to short sleep."],
      ["word", "Adults who slept fewer than five hours a night had a 20% higher risk of developing type 2 diabetes"],
      ["negation", "the study is observational and can show that short sleep causes diabetes"],
    ],
    omissions: [
      ["flips", "A healthy diet did … offset the risk linked to short sleep."],
      ["flips", "offset the risk linked to short sleep", "truncation-drops-negation"],
    ],
    other: [
      ["partial", "adults sleeping fewer than six hours a night had a 20% higher risk of type 2 diabetes over the 12-year follow-up"],
      ["not_found", "Sleeping more than nine hours a night was linked to a higher risk of stroke."],
    ],
  },
  {
    id: "shipping-red-sea",
    lang: "en",
    text:
      `Container traffic through the Suez Canal dropped by two thirds in the first quarter as shipping lines rerouted vessels around the Cape of Good Hope. ` +
      `The detour adds about 3,500 nautical miles and ten to fourteen days to a voyage between Asia and northern Europe. ` +
      `Spot freight rates from Shanghai to Rotterdam more than tripled between December and February. ` +
      `The canal authority said its revenue in January was 46${NB}% lower than a year earlier.`,
    genuine: [
      "The detour adds about 3,500 nautical miles and ten to fourteen days to a voyage between Asia and northern Europe.",
      "Spot freight rates from Shanghai to Rotterdam more than tripled between December and February",
      "Container traffic through the Suez Canal dropped by two thirds in the first quarter",
    ],
    altered: [
      ["number", "The detour adds about 5,300 nautical miles and ten to fourteen days to a voyage"],
      ["word", "Spot freight rates from Shanghai to Rotterdam more than doubled between December and February"],
      ["number", "The canal authority said its revenue in January was 64% lower than a year earlier."],
      ["order", "Container traffic through the Suez Canal dropped by two thirds in the second quarter"],
    ],
    other: [
      ["partial", "container traffic through the Suez Canal fell by two thirds in the first quarter as shipping lines rerouted ships around the Cape of Good Hope"],
      ["not_found", "Insurance premiums for ships crossing the Red Sea rose tenfold."],
    ],
  },
  {
    id: "library-funding",
    lang: "en",
    text:
      `The county will close four of its 17 branch libraries next spring, saving an estimated $1.8${NB}million a year. ` +
      `Opening hours at the re${SHY}maining branches will not be cut, officials said. ` +
      `Library visits have fallen by a third since 2015, while e-book loans have more than doubled. ` +
      `Residents opposed to the plan collected 9,400 signatures in six weeks and have asked for a public hearing.`,
    genuine: [
      "The county will close four of its 17 branch libraries next spring, saving an estimated $1.8 million a year.",
      "Opening hours at the remaining branches will not be cut, officials said.",
      "Residents opposed to the plan collected 9,400 signatures in six weeks",
    ],
    altered: [
      ["number", "Residents opposed to the plan collected 4,900 signatures in six weeks"],
      ["negation", "Opening hours at the remaining branches will be cut, officials said."],
      ["word", "Library visits have fallen by a half since 2015, while e-book loans have more than doubled."],
      ["number", "The county will close four of its 17 branch libraries next spring, saving an estimated $8.1 million a year."],
    ],
    omissions: [["flips", "Opening hours at the remaining branches will … be cut, officials said."]],
    other: [
      ["partial", "the county will shut four of its 17 branch libraries next spring, saving about $1.8 million a year"],
      ["not_found", "The library board voted unanimously to extend weekend opening hours."],
    ],
  },
  {
    id: "wheat-harvest",
    lang: "en",
    text:
      `India’s wheat harvest is forecast at a record 112${NB}million tonnes this year, up from 110.5${NB}million tonnes, the agriculture ministry said. ` +
      `Independent traders put the figure lower, at about 105${NB}million tonnes, because of a heatwave in March that shrivelled grain in parts of Punjab and Haryana. ` +
      `The government has not lifted the export ban imposed in May 2022 and said it has no plans to do so before stocks are rebuilt.`,
    genuine: [
      "India's wheat harvest is forecast at a record 112 million tonnes this year, up from 110.5 million tonnes",
      "because of a heatwave in March that shrivelled grain in parts of Punjab and Haryana",
      "The government has not lifted the export ban imposed in May 2022",
    ],
    altered: [
      ["number", "India's wheat harvest is forecast at a record 121 million tonnes this year"],
      ["negation", "The government has lifted the export ban imposed in May 2022"],
      ["word", "because of a drought in March that shrivelled grain in parts of Punjab and Haryana"],
      ["number", "The government has not lifted the export ban imposed in May 2023"],
    ],
    other: [
      ["partial", "independent traders put the figure lower, around 105 million tonnes, due to a heatwave in March"],
      ["not_found", "Rice exports from India reached a record high last year."],
    ],
  },
  {
    id: "ai-energy",
    lang: "en",
    text:
      `Data centres consumed about 415${NB}terawatt-hours of electricity in 2024, roughly 1.5${NB}% of global demand, the agency estimates. ` +
      `Consumption could more than double by 2030 to around 945${NB}TWh — slightly more than Japan uses today. ` +
      `The report does not assume that efﬁciency gains will stop: chips have become far more efficient per operation, ` +
      `but demand for compu${SHY}tation is growing faster. About half of the new capacity is expected to be built in the United States.`,
    genuine: [
      "Data centres consumed about 415 terawatt-hours of electricity in 2024, roughly 1.5% of global demand",
      "Consumption could more than double by 2030 to around 945 TWh - slightly more than Japan uses today.",
      "The report does not assume that efficiency gains will stop",
    ],
    altered: [
      ["number", "Data centres consumed about 415 terawatt-hours of electricity in 2024, roughly 5.1% of global demand"],
      ["negation", "The report assumes that efficiency gains will stop"],
      ["word", "slightly more than Germany uses today"],
      ["number", "Consumption could more than double by 2030 to around 954 TWh"],
    ],
    other: [
      ["partial", "data centres used about 415 terawatt-hours of electricity in 2024, or roughly 1.5% of global demand, the agency estimates"],
      ["not_found", "Nuclear power will supply most of the electricity used by new data centres."],
    ],
  },
  {
    id: "museum-return",
    lang: "en",
    text:
      `The museum agreed on Monday to return 29 bronze plaques to Nigeria, more than 125 years after they were taken from Benin City by British soldiers in 1897. ` +
      `The trustees said the decision “was not made under pressure” but after a review of the objects’ history that began in 2021. ` +
      `Some of the plaques will remain on loan in the museum’s African gallery for up to three years. ` +
      `Nigerian officials welcomed the move but said several hundred objects remain in other collections.`,
    genuine: [
      "The museum agreed on Monday to return 29 bronze plaques to Nigeria",
      "the decision was not made under pressure but after a review of the objects' history that began in 2021",
      "Some of the plaques will remain on loan in the museum's African gallery for up to three years.",
    ],
    altered: [
      ["number", "taken from Benin City by British soldiers in 1887"],
      ["negation", "the decision was made under pressure"],
      ["word", "Some of the plaques will remain on loan in the museum's African gallery for up to five years."],
      ["number", "The museum agreed on Monday to return 92 bronze plaques to Nigeria"],
    ],
    other: [
      ["partial", "the museum agreed on Monday to give back 29 bronze plaques to Nigeria, more than 125 years after they were taken"],
      ["not_found", "The plaques will be displayed in a new national museum in Lagos."],
    ],
  },
  {
    id: "software-outage",
    lang: "en",
    text:
      `A faulty configuration update caused the outage, which lasted 3 hours and 42 minutes and affected customers in 14 regions. ` +
      `The company said no customer data was lost or exposed. ` +
      `Engineers rolled back the change at 14:07${NB}UTC, but a backlog of queued requests slowed recovery for another hour. ` +
      `In its post-mortem the company said it would stage future configuration changes region by region instead of globally.`,
    genuine: [
      "A faulty configuration update caused the outage, which lasted 3 hours and 42 minutes and affected customers in 14 regions.",
      "The company said no customer data was lost or exposed.",
      "it would stage future configuration changes region by region instead of globally",
    ],
    altered: [
      ["number", "which lasted 3 hours and 24 minutes and affected customers in 14 regions"],
      ["negation", "The company said customer data was lost or exposed."],
      ["word", "A faulty security update caused the outage, which lasted 3 hours and 42 minutes"],
      ["number", "Engineers rolled back the change at 14:70 UTC"],
    ],
    other: [
      ["partial", "a faulty configuration update caused the outage, which lasted 3 hours and 42 minutes and hit customers in 14 regions"],
      ["not_found", "The outage was caused by a cyberattack on the company's DNS provider."],
    ],
  },
  {
    id: "bird-migration",
    lang: "en",
    text:
      `A bar-tailed godwit tagged in Alaska flew 13,560${NB}kilometres to Tasmania without stopping, a journey of 11 days. ` +
      `The bird, a five-month-old juvenile, did not land on water or rest during the flight, researchers said. ` +
      `Godwits store fat equal to about half their body weight before departure and shrink some internal organs to save weight. ` +
      `The previous record, 12,854 kilometres, was set by an adult of the same species in 2021.`,
    genuine: [
      "A bar-tailed godwit tagged in Alaska flew 13,560 kilometres to Tasmania without stopping, a journey of 11 days.",
      "The previous record, 12,854 kilometres, was set by an adult of the same species in 2021.",
      "shrink some internal organs to save weight",
    ],
    altered: [
      ["number", "A bar-tailed godwit tagged in Alaska flew 13,650 kilometres to Tasmania without stopping"],
      ["negation", "The bird, a five-month-old juvenile, did land on water during the flight"],
      ["word", "Godwits store fat equal to about a third of their body weight before departure"],
      ["number", "The previous record, 12,854 kilometres, was set by an adult of the same species in 2012."],
    ],
    omissions: [["keeps", "A bar-tailed godwit tagged in Alaska flew 13,560 kilometres to Tasmania … a journey of 11 days."]],
    other: [
      ["partial", "a bar-tailed godwit tagged in Alaska flew 13,560 kilometres to Tasmania non-stop, a journey of 11 days"],
      ["not_found", "Godwits navigate using the Earth's magnetic field and the position of the stars."],
    ],
  },
  {
    id: "housing-rents",
    lang: "en",
    text:
      `Average rents for new lettings rose 8.6${NB}% in the year to March, the fastest rate since the series began in 2016. ` +
      `In the capital the average monthly rent reached £2,035. Wages grew by 6.1${NB}% over the same period, ` +
      `so rents took a larger share of income for the third year running. ` +
      `The statistics office said rent controls introduced in Scotland in 2022 had not prevented rents for new tenancies from rising.`,
    genuine: [
      "Average rents for new lettings rose 8.6% in the year to March, the fastest rate since the series began in 2016.",
      "In the capital the average monthly rent reached £2,035.",
      "rent controls introduced in Scotland in 2022 had not prevented rents for new tenancies from rising",
    ],
    altered: [
      ["number", "In the capital the average monthly rent reached £2,053."],
      ["negation", "rent controls introduced in Scotland in 2022 had prevented rents for new tenancies from rising"],
      ["word", "so rents took a smaller share of income for the third year running"],
      ["number", "Average rents for new lettings rose 6.8% in the year to March"],
    ],
    other: [
      ["partial", "average rents for new lets rose 8.6% in the year to March, the fastest rate since the series began in 2016"],
      ["not_found", "House prices fell in most regions for the second consecutive quarter."],
    ],
  },
  {
    id: "open-source-license",
    lang: "en",
    text:
      `The project will move from the Apache 2.0 license to a source-available license for all releases after version 7.4, the maintainers announced. ` +
      `Existing releases remain under Apache 2.0 and can still be forked. ` +
      `Cloud providers will need a commercial agreement to offer the software as a managed service; individual users and companies running it internally will not. ` +
      `Within a week, a group of former contributors had started a fork under the original license.`,
    genuine: [
      "The project will move from the Apache 2.0 license to a source-available license for all releases after version 7.4",
      "Existing releases remain under Apache 2.0 and can still be forked.",
      "Within a week, a group of former contributors had started a fork under the original license.",
    ],
    altered: [
      ["number", "a source-available license for all releases after version 7.2"],
      ["negation", "Existing releases remain under Apache 2.0 and can no longer be forked."],
      ["word", "Within a month, a group of former contributors had started a fork under the original license."],
      ["order", "individual users and companies running it internally will need a commercial agreement"],
    ],
    other: [
      ["partial", "the project will switch from the Apache 2.0 license to a source-available license for every release after version 7.4"],
      ["not_found", "The foundation that owns the trademark has sued the fork's maintainers."],
    ],
  },
  {
    id: "long-court-ruling",
    lang: "en",
    text:
      `The court ruled on Wednesday that the city’s 2021 zoning amendment was unlawful because the council had not consulted residents as the planning act requires. ` +
      `In a 58-page judgment, the judge wrote that the consultation “consisted of a single notice posted on the council’s website for eleven days, in August, ` +
      `without any indication of where the affected parcels were.” The amendment had allowed buildings of up to 14 storeys on 212 plots along the river, ` +
      `where the previous limit was six. Developers had already obtained permits for 31 projects under the new rules; the judgment does not revoke those permits, ` +
      `but it bars the council from issuing new ones until a lawful consultation has taken place.\n` +
      `The council said it would not appeal. “We accept the court’s reasoning and will start a full consultation in the new year,” the deputy leader said. ` +
      `Residents’ associations, which brought the case in 2022 with the support of two environmental groups, called the ruling “a victory for every neighbourhood ` +
      `that was told about a decision after it was made.” The court ordered the council to pay the claimants’ legal costs, estimated at £410,000. ` +
      `Housing advocates warned that the delay could cost the city several hundred homes a year at a time when waiting lists have reached 18,700 households.`,
    genuine: [
      "The court ruled on Wednesday that the city's 2021 zoning amendment was unlawful because the council had not consulted residents as the planning act requires. In a 58-page judgment, the judge wrote that the consultation \"consisted of a single notice posted on the council's website for eleven days, in August, without any indication of where the affected parcels were.\" The amendment had allowed buildings of up to 14 storeys on 212 plots along the river, where the previous limit was six. Developers had already obtained permits for 31 projects under the new rules; the judgment does not revoke those permits, but it bars the council from issuing new ones until a lawful consultation has taken place.",
      "The council said it would not appeal.",
      "Housing advocates warned that the delay could cost the city several hundred homes a year at a time when waiting lists have reached 18,700 households.",
    ],
    altered: [
      [
        "number",
        "The amendment had allowed buildings of up to 14 storeys on 212 plots along the river, where the previous limit was six. Developers had already obtained permits for 13 projects under the new rules; the judgment does not revoke those permits, but it bars the council from issuing new ones until a lawful consultation has taken place.",
      ],
      [
        "negation",
        "The court ruled on Wednesday that the city's 2021 zoning amendment was unlawful because the council had not consulted residents as the planning act requires. In a 58-page judgment, the judge wrote that the consultation consisted of a single notice posted on the council's website for eleven days. Developers had already obtained permits for 31 projects under the new rules; the judgment revokes those permits.",
      ],
      [
        "word",
        "Residents' associations, which brought the case in 2022 with the support of two environmental groups, called the ruling a victory for every neighbourhood that was told about a decision before it was made.",
      ],
    ],
    other: [
      ["partial", "The court found on Wednesday that the city's 2021 zoning amendment was unlawful because the council failed to consult residents as the planning act requires."],
      ["not_found", "The judge criticised the developers for lobbying councillors before the vote on the amendment."],
    ],
  },
  {
    id: "fr-biodiversite",
    lang: "fr",
    text:
      `Selon le rapport publié mardi, les populations d’oiseaux des milieux agricoles ont diminué de 43${NB}% en France depuis 1989. ` +
      `Les auteurs attribuent ce déclin principalement à l’intensiﬁcation des pratiques agricoles et à l’usage des pesticides. ` +
      `« Ce n’est pas une fatalité », a déclaré la présidente du comité scientiﬁque, ` +
      `qui rappelle que certaines espèces se sont rétablies là où les haies ont été replantées.`,
    genuine: [
      "les populations d'oiseaux des milieux agricoles ont diminué de 43% en France depuis 1989",
      "Ce n'est pas une fatalité",
      "certaines espèces se sont rétablies là où les haies ont été replantées",
    ],
    altered: [
      ["number", "les populations d'oiseaux des milieux agricoles ont diminué de 34% en France depuis 1989"],
      ["negation", "C'est une fatalité, a déclaré la présidente du comité scientifique"],
      ["word", "Les auteurs attribuent ce déclin principalement à l'intensification des pratiques agricoles et à l'usage des engrais."],
    ],
    other: [
      ["partial", "les populations d'oiseaux des milieux agricoles ont baissé de 43% en France depuis 1989, selon le rapport"],
      ["not_found", "Le gouvernement a annoncé un plan de soutien aux apiculteurs."],
    ],
  },
  {
    id: "de-bahn",
    lang: "de",
    text:
      `Im vergangenen Jahr waren nur 64${NB}% der Fernzüge der Deutschen Bahn pünktlich – der schlechteste Wert seit mehr als zwanzig Jahren. ` +
      `Als pünktlich gilt ein Zug, der weniger als sechs Minuten Verspätung hat. ` +
      `Der Konzern führt die Probleme vor allem auf die marode Infra${SHY}struktur und die vielen Baustellen zurück. ` +
      `Eine Besserung sei „nicht vor 2027“ zu erwarten, sagte die Vorstandsvorsitzende.`,
    genuine: [
      "Im vergangenen Jahr waren nur 64% der Fernzüge der Deutschen Bahn pünktlich - der schlechteste Wert seit mehr als zwanzig Jahren.",
      "Als pünktlich gilt ein Zug, der weniger als sechs Minuten Verspätung hat.",
      "Eine Besserung sei nicht vor 2027 zu erwarten",
    ],
    altered: [
      ["number", "Im vergangenen Jahr waren nur 46% der Fernzüge der Deutschen Bahn pünktlich"],
      ["negation", "Eine Besserung sei vor 2027 zu erwarten"],
      ["word", "Als pünktlich gilt ein Zug, der weniger als fünf Minuten Verspätung hat."],
    ],
    omissions: [["flips", "Eine Besserung sei … vor 2027 zu erwarten"]],
    other: [
      ["partial", "Im letzten Jahr waren nur 64% der Fernzüge der Deutschen Bahn pünktlich, der schlechteste Wert seit über zwanzig Jahren"],
      ["not_found", "Die Bahn will im nächsten Jahr zweihundert neue Züge bestellen."],
    ],
  },
  {
    id: "es-sequia",
    lang: "es",
    text:
      `Los embalses de Cataluña se encuentran al 16${NB}% de su capacidad, el nivel más bajo desde que hay registros. ` +
      `El Gobierno regional ha declarado la emergencia por sequía en 202 municipios, que no podrán llenar piscinas ni regar jardines. ` +
      `«No descartamos traer agua en barco si la situación empeora», afirmó el consejero de Acción Climática. ` +
      `La desalinizadora de El Prat produce ya el 25${NB}% del agua que consume el área metropolitana de Barcelona.`,
    genuine: [
      "Los embalses de Cataluña se encuentran al 16% de su capacidad, el nivel más bajo desde que hay registros.",
      "No descartamos traer agua en barco si la situación empeora",
      "La desalinizadora de El Prat produce ya el 25% del agua que consume el área metropolitana de Barcelona.",
    ],
    altered: [
      ["number", "ha declarado la emergencia por sequía en 220 municipios"],
      ["negation", "No descartamos traer agua en barco si la situación no empeora"],
      ["word", "Los embalses de Cataluña se encuentran al 16% de su capacidad, el nivel más alto desde que hay registros."],
    ],
    omissions: [["flips", "descartamos traer agua en barco si la situación empeora", "truncation-drops-negation"]],
    other: [
      ["partial", "los embalses de Cataluña están al 16% de su capacidad, el nivel más bajo desde que existen registros"],
      ["not_found", "El Gobierno aprobó ayudas de 300 millones para los agricultores afectados."],
    ],
  },
  {
    id: "pt-desmatamento",
    lang: "pt",
    text:
      `O desmatamento na Amazônia brasileira caiu 22${NB}% entre agosto de 2022 e julho de 2023, segundo dados do sistema Prodes. ` +
      `Foram derrubados 9.001 quilômetros quadrados de floresta, a menor área desde 2018. ` +
      `No Cerrado, porém, o desmatamento aumentou 3${NB}% no mesmo período. ` +
      `O governo afirmou que a meta de zerar o desmatamento ilegal até 2030 não mudou.`,
    genuine: [
      "O desmatamento na Amazônia brasileira caiu 22% entre agosto de 2022 e julho de 2023",
      "Foram derrubados 9.001 quilômetros quadrados de floresta, a menor área desde 2018.",
      "a meta de zerar o desmatamento ilegal até 2030 não mudou",
    ],
    altered: [
      ["number", "O desmatamento na Amazônia brasileira caiu 12% entre agosto de 2022 e julho de 2023"],
      ["negation", "o desmatamento não aumentou no mesmo período"],
      ["word", "Foram derrubados 9.001 quilômetros quadrados de floresta, a maior área desde 2018."],
    ],
    other: [
      ["partial", "o desmatamento na Amazônia brasileira recuou 22% entre agosto de 2022 e julho de 2023, segundo o Prodes"],
      ["not_found", "A exportação de soja para a China bateu recorde em 2023."],
    ],
  },
  {
    id: "ja-population",
    lang: "ja",
    text:
      `総務省によると、2023年10月1日時点の日本の総人口は1億2435万2千人で、前年より59万5千人減少した。` +
      `減少は13年連続である。65歳以上の人口は全体の29.1${NB}%を占め、過去最高となった。` +
      `一方、外国人の人口は24万3千人増え、比較可能な統計がある中で最大の増加となった。`,
    genuine: ["日本の総人口は1億2435万2千人で、前年より59万5千人減少した。", "減少は13年連続である。", "65歳以上の人口は全体の29.1%を占め、過去最高となった"],
    altered: [
      ["number", "減少は31年連続である。"],
      ["number", "65歳以上の人口は全体の21.9%を占め、過去最高となった"],
      ["word", "外国人の人口は24万3千人減り、比較可能な統計がある中で最大の減少となった"],
    ],
    other: [["not_found", "政府は出生率を引き上げるための新たな対策を発表した。"]],
  },
  {
    id: "zh-ev",
    lang: "zh",
    text:
      `中国汽车工业协会数据显示，2023年新能源汽车销量达到949.5万辆，同比增长37.9${NB}%，占新车总销量的31.6${NB}%。` +
      `出口方面，新能源汽车全年出口120.3万辆，是上年的1.8倍。` +
      `协会表示，价格竞争仍然激烈，部分企业的利润率并未改善。`,
    genuine: ["2023年新能源汽车销量达到949.5万辆，同比增长37.9%", "新能源汽车全年出口120.3万辆，是上年的1.8倍。", "部分企业的利润率并未改善"],
    altered: [
      ["number", "2023年新能源汽车销量达到994.5万辆，同比增长37.9%"],
      ["negation", "部分企业的利润率已经改善"],
      ["number", "新能源汽车全年出口120.3万辆，是上年的2.8倍。"],
    ],
    other: [["not_found", "政府宣布将延长购置税减免政策至2027年底。"]],
  },
];

/**
 * Hard cases, written and labelled before the matcher was run on them: text as extraction leaves
 * it (words hyphenated across line breaks, footnote and citation markers, page numbers), spelling
 * and unit variants, French spacing. Labels are by what the page says; the build does not check
 * them against reference(), which cannot read these pages either. Each case: [class, expected,
 * kind, quote]. The first run verified 8 of their 13 genuine quotes (the 5 others: citation markers,
 * a footnote marker, words broken across lines); the normalizer has read such page furniture since,
 * so these cases are no longer unseen.
 */
export const HARD_PAGES = [
  {
    id: "hard-pdf-report",
    lang: "en",
    text:
      "The committee’s final report, published in March, con-\ncluded that the programme had reduced youth unemploy-\nment by 4.2 percentage points.¹² " +
      "It recommended extend-\ning the scheme to all regions by 2027.\n\n— 14 —\n\n" +
      "Critics argued that the estimate relied on a comparison group that was not comparable. The ministry has not responded.",
    cases: [
      ["genuine", "verified", "hard:hyphenated-line-break", "concluded that the programme had reduced youth unemployment by 4.2 percentage points"],
      ["genuine", "verified", "hard:hyphenated-line-break", "It recommended extending the scheme to all regions by 2027."],
      ["genuine", "verified", "hard:footnote-marker", "reduced youth unemployment by 4.2 percentage points. It recommended"],
      ["genuine", "verified", "hard:plain", "Critics argued that the estimate relied on a comparison group that was not comparable."],
      ["altered", "partial", "hard:number", "concluded that the programme had reduced youth unemployment by 2.4 percentage points"],
      ["altered", "partial", "hard:negation", "the estimate relied on a comparison group that was comparable"],
      ["unchecked", "unchecked", "hard:short", "responded"], // first labelled partial (a truncation after "not"); one word is too short to check by definition
    ],
  },
  {
    id: "hard-wiki-coal",
    lang: "en",
    text:
      "Global coal consumption hit a record 8.7 billion tonnes in 2023,[3] driven by demand in India and China.[4][5] " +
      "In the European Union, coal use fell by 23 % as renewables and gas replaced it.[citation needed] " +
      "The agency expects demand to plateau through 2026 (see Figure 2), before declining slowly.",
    cases: [
      ["genuine", "verified", "hard:citation-marker", "Global coal consumption hit a record 8.7 billion tonnes in 2023, driven by demand in India and China."],
      ["genuine", "verified", "hard:citation-marker", "coal use fell by 23% as renewables and gas replaced it. The agency expects demand to plateau through 2026"],
      ["genuine", "verified", "hard:plain", "In the European Union, coal use fell by 23% as renewables and gas replaced it"],
      ["genuine", "verified", "hard:bracket-at-start", "[...] driven by demand in India and China"],
      ["altered", "partial", "hard:number", "In the European Union, coal use fell by 32% as renewables and gas replaced it"],
      ["altered", "partial", "hard:unit-words", "In the European Union, coal use fell by 23 per cent as renewables and gas replaced it"],
      ["altered", "partial", "hard:sentences-merged", "Global coal consumption hit a record 8.7 billion tonnes in 2023. The agency expects demand to plateau through 2026"],
    ],
  },
  {
    id: "hard-spelling",
    lang: "en",
    text:
      "The organisation’s analysis — published on 3 May — found that 1 in 5 adults (20\u00a0%) had skipped a meal to save money in the past month. " +
      "Among single parents the share rose to 38\u00a0%. The charity said the figures were “the worst we have recorded”.",
    cases: [
      ["genuine", "verified", "hard:plain", "found that 1 in 5 adults (20%) had skipped a meal to save money in the past month"],
      ["genuine", "verified", "hard:dashes", "The organisation's analysis -- published on 3 May -- found that 1 in 5 adults"],
      ["genuine", "verified", "hard:nested-quotes", "The charity said the figures were 'the worst we have recorded'."],
      ["altered", "partial", "hard:spelling", "The organization's analysis - published on 3 May - found that 1 in 5 adults"],
      ["altered", "partial", "hard:number", "Among single parents the share rose to 83%."],
      ["altered", "partial", "hard:word", "The charity said the figures were the best we have recorded"],
    ],
  },
  {
    id: "hard-fr-spacing",
    lang: "fr",
    text:
      "Le ministre a répondu\u00a0: «\u00a0Pourquoi pas\u202f? Nous verrons en 2025.\u00a0» " +
      "Le budget prévoit 3,2\u00a0milliards d’euros pour la rénovation des écoles, dont 40\u00a0% pour l’isolation thermique.",
    cases: [
      ["genuine", "verified", "hard:french-spacing", "Pourquoi pas? Nous verrons en 2025."],
      ["genuine", "verified", "hard:french-spacing", "Le ministre a répondu: \"Pourquoi pas ?\""],
      ["genuine", "verified", "hard:plain", "Le budget prévoit 3,2 milliards d'euros pour la rénovation des écoles"],
      ["altered", "partial", "hard:number", "Le budget prévoit 2,3 milliards d'euros pour la rénovation des écoles"],
      ["altered", "partial", "hard:number", "dont 4% pour l'isolation thermique"],
      ["unchecked", "unchecked", "hard:short", "Pourquoi pas ?"],
    ],
  },
  {
    // Brackets that put another word in a page word's place (an antonym, another adjective or verb), beside ones that
    // only respell the page's word or say what a pronoun points at; and a heading under a table cell's "No".
    id: "hard-word-brackets",
    lang: "en",
    text:
      "As npm already announced it last month, the registry will require two-factor logins for maintainers. " +
      "Analysts were hyping up the new chips, but he said demand was weak and prices were falling.\n" +
      "Plan to Share Individual Participant Data (IPD): No\nKeywords provided by Wake Forest University Health Sciences:\nCancer survivors",
    cases: [
      ["altered", "partial", "altered:bracket-antonym", "As npm already announced it [first] month, the registry will require two-factor logins"],
      ["altered", "partial", "altered:bracket-antonym", "Analysts were hyping [down] the new chips"],
      ["altered", "partial", "altered:bracket-antonym", "he said demand was [strong] and prices were falling"],
      ["altered", "partial", "altered:bracket-word", "he [denied] demand was weak and prices were falling"],
      ["altered", "partial", "altered:bracket-word", "the registry will [forbid] two-factor logins for maintainers"],
      ["genuine", "verified", "bracket:respelled", "he said demand [is] weak and prices [are] falling"],
      ["genuine", "verified", "bracket:respelled", "As npm already [announces] it last month"],
      ["genuine", "verified", "bracket:for-pronoun", "but [the analyst] said demand was weak and prices were falling"],
      ["genuine", "verified", "bracket:for-pronoun", "As npm already announced [the policy] last month"],
      ["genuine", "verified", "hard:line-above-answers", "Keywords provided by Wake Forest University Health Sciences:"],
    ],
  },
];

/**
 * Unseen cases: written and labelled on 2026-11-25 after the matcher's last change, run once and
 * kept as they came out (bench/README.md reports them apart). Same shape as HARD_PAGES.
 */
export const UNSEEN_PAGES = [
  {
    id: "unseen-abstract",
    lang: "en",
    text:
      "Background: Statins are widely prescribed, but their effect in women has been questioned. " +
      "Methods: We pooled individual data from 28 randomised trials (n = 186,854). " +
      "Results: Each 1.0 mmol/L reduction in LDL cholesterol reduced major vascular events by 21% (RR 0.79, 95% CI 0.77–0.81; p < 0.001). " +
      "The proportional reduction was similar in women and men. " +
      "Conclusions: Statin therapy is effective in women as well as in men.",
    cases: [
      ["genuine", "verified", "unseen:spacing-around-symbols", "Each 1.0 mmol/L reduction in LDL cholesterol reduced major vascular events by 21% (RR 0.79, 95% CI 0.77-0.81; p<0.001)"],
      ["genuine", "verified", "unseen:plain", "We pooled individual data from 28 randomised trials (n = 186,854)."],
      ["genuine", "verified", "unseen:plain", "Statin therapy is effective in women as well as in men."],
      ["genuine", "verified", "unseen:case", "THE PROPORTIONAL REDUCTION WAS SIMILAR IN WOMEN AND MEN"],
      ["altered", "partial", "unseen:number", "reduced major vascular events by 12% (RR 0.79, 95% CI 0.77-0.81"],
      ["altered", "partial", "unseen:negation", "The proportional reduction was not similar in women and men."],
      ["altered", "partial", "unseen:number", "Each 1.0 mmol/L reduction in LDL cholesterol reduced major vascular events by 21% (RR 0.97"],
      ["altered", "partial", "unseen:typo", "Statin therapy is effective in womn as well as in men."],
    ],
  },
  {
    id: "unseen-news-bullets",
    lang: "en",
    text:
      "BRUSSELS (Reuters) - European Union countries agreed on Friday to cut methane emissions from imported gas by 2030.\n" +
      "Key points:\n• Importers must report emissions from 2027\n• Penalties of up to 20% of annual turnover\n• Review clause in 2028\n" +
      "\"This is a world first,\" said Climate Commissioner Wopke Hoekstra, who negotiated the deal.",
    cases: [
      ["genuine", "verified", "unseen:plain", "European Union countries agreed on Friday to cut methane emissions from imported gas by 2030."],
      ["genuine", "verified", "unseen:list-item", "Importers must report emissions from 2027"],
      ["genuine", "verified", "unseen:nested-quotes", "\"This is a world first,\" said Climate Commissioner Wopke Hoekstra"],
      ["genuine", "verified", "unseen:ellipsis-over-list", "Importers must report emissions from 2027 … Review clause in 2028"],
      ["altered", "partial", "unseen:number", "Penalties of up to 2% of annual turnover"],
      ["altered", "partial", "unseen:number", "agreed on Friday to cut methane emissions from imported gas by 2035"],
      ["altered", "partial", "unseen:word", "said Climate Commissioner Wopke Hoekstra, who opposed the deal"],
      ["unsupported", "not_found", "unseen:made-up", "Hungary blocked the deal for two years, citing energy security."],
    ],
  },
  {
    id: "unseen-es-energia",
    lang: "es",
    text:
      "¿Cuánto cuesta la energía? El precio medio de la electricidad en el mercado mayorista bajó a 44,2\u00a0euros por megavatio hora en abril, " +
      "un 52\u00a0% menos que hace un año. Las renovables cubrieron el 61\u00a0% de la demanda, según Red Eléctrica.",
    cases: [
      ["genuine", "verified", "unseen:plain", "El precio medio de la electricidad en el mercado mayorista bajó a 44,2 euros por megavatio hora en abril"],
      ["genuine", "verified", "unseen:percent-spacing", "un 52% menos que hace un año"],
      ["genuine", "verified", "unseen:case", "las renovables cubrieron el 61 % de la demanda, según red eléctrica"],
      ["altered", "partial", "unseen:number", "bajó a 42,2 euros por megavatio hora en abril"],
      ["altered", "partial", "unseen:number", "Las renovables cubrieron el 16 % de la demanda"],
      ["altered", "partial", "unseen:accents-dropped", "El precio medio de la electricidad en el mercado mayorista bajo a 44,2 euros"],
    ],
  },
];
