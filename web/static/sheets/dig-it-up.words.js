// Dig It Up's own words in English and Korean: its tiles, sets, chance cards, missions and variants,
// the fields of its sheet, a player's money in the rulebook's steps and words ("Calculating money")
// and what its scorer refuses. The page finds them once the game's sheet is loaded (i18n.js); both
// languages have the same keys (tests/web/test_game_words.py). Where English says null, the box's
// own text is shown: the catalogue words the cards' effects and the missions' conditions in English.
import { item, minus } from "../i18n.js";

// A variant as a rule in Korean: "기본 규칙", but "간단 규칙" as it is named, not "간단 규칙 규칙".
const rule = (variant) => (variant.endsWith("규칙") ? variant : `${variant} 규칙`);
// The cards a refusal names, in the page's language.
const named = (cards) => cards.map((card) => item("card", card)).join(", ");
const fromTheBox = (ids) => Object.fromEntries(ids.map((id) => [id, null]));
const KEPT_CARDS = ["gold_nugget", "pink_diamond", "appraisal", "insurance"];
const MISSIONS = ["jack_of_all_trades", "closing_shop", "gold_digger", "bronze_age", "scholar", "crystal_clear",
  "ruby_hunter", "diamond_hunter", "clean_hands", "rock_collector", "big_purse", "card_shark", "bundler",
  "specialist", "collector"];

export default {
  en: {
    variant: "Variant",
    variantFor: "For {low}–{high} players.",
    variantMisfit: "This table has {n} players; the “{variant}” rules are for {low}–{high}.",
    useVariant: "Use {variant}",
    tiles: "Tiles",
    money: "Money",
    moneyTokens: "money tokens, {unit} value",
    cardsKept: "Orange cards still held",
    mission: "Mission",
    missionWord: "mission",
    missionAchieved: "mission achieved",
    missionMet: "✓ Achieved with these counts.",
    missionMissed: "Not achieved with these counts.",
    "part.mission": "Mission", "part.missionOf": "Mission: {mission} ({verdict})", achieved: "achieved",
    notAchieved: "not achieved", missionByBonus: "by its bonus", missionFaceDown: "kept face down",
    "part.cards": "Chance cards", "part.tokens": "Money tokens", "part.set": "{set} set, {tiles}",
    "part.setCancelled": "{set} set, {tiles}: 0 by {card}", "part.asTile": "(counted as a {tile} tile)",
    "part.trinity": "Trinity Prize, {n} × {bonus}",
    "part.bundlesOf": ({ n, size }) => `${n} ${n === 1 ? "bundle" : "bundles"} of ${size} tiles`,
    "part.leftOver": "Left over, {tiles}: no bundle", "part.inNoSet": "In no set, {tiles} × {each}",
    "problem.noTiles": ({ variant, players, tile }) => `The ${variant} game${players ? ` for ${players} players` : ""} has no ${tile} tiles.`,
    "problem.noCards": "The {variant} variant is played without chance cards.",
    "problem.usedAtOnce": "{card} is used at once and cannot be kept to the end.",
    "problem.removed": "{card}{mission} is removed from the {variant} game.",
    "problem.noMissions": "The {variant} variant is played without missions.",
    "problem.sayAchieved": "Say whether {mission} was achieved: these counts alone do not show it.",
    "problem.contradicted": ({ mission, achieved, stars }) => `${mission} is ${achieved ? "" : "not "}achieved with these counts.${stars == null ? ""
      : ` A chance card is drawn only for a ★ tile dug, and ${stars} ★ ${stars === 1 ? "tile is" : "tiles are"} held.`}`,
    "problem.tilesOverBoard": ({ held, tile, variant, players, most }) =>
      `Together the players hold ${held} ${tile} tiles, but the ${variant} game${players ? ` for ${players} players` : ""} has only ${most}.`,
    "problem.tilesOverSites": ({ held, variant, players, most, ends }) =>
      `Together the players hold ${held} tiles, but the ${variant} game${players ? ` for ${players} players` : ""} gives at most ${most}: a dig site's last tile leaves play when the site is abandoned, a site still dug keeps two or more, and the game ends once ${ends} sites are abandoned.`,
    "problem.tokensNotPlusTwo": ({ variant, each, tokens }) =>
      `The ${variant} variant's money tokens come from +2 tiles alone, ${each} ₩ each: ${minus(tokens)} ₩ cannot be made of them.`,
    "problem.tokensOverGold": ({ tile, marked, most, tokens }) =>
      `Each +2 tile is a ${tile} tile its player keeps: ${marked} ${tile} ${marked === 1 ? "tile brings" : "tiles bring"} at most ${most} ₩ of money tokens, not ${tokens} ₩.`,
    "problem.tokensOverBoard": ({ held, tiles, most, variant, players }) =>
      `Together the players hold ${held} ₩ of money tokens, but the ${variant} game${players ? ` for ${players} players` : ""} has only ${tiles} +2 tiles, ${most} ₩.`,
    "problem.moneyOver": ({ held, most, cards, variant, players }) =>
      `Together the players hold ${held} ₩ of money, but the ${variant} game${players ? ` for ${players} players` : ""} gives at most ${most} ₩ in all: its +2 tiles and the chance cards that give money (${named(cards)}).`,
    "problem.cardsOver": "Together the players hold {held} × {card}, but the box has only {most}.",
    "problem.missionsOver": "Together the players hold {held} × {mission}, but the box has only one.",
    "problem.cardsOverStars": ({ stars, kept }) =>
      `A chance card is drawn only for a ★ tile dug (ancient scroll or crystal), one a tile: ${stars} ★ ${stars === 1 ? "tile brings" : "tiles bring"} at most ${stars} ${stars === 1 ? "card" : "cards"}, not ${kept}.`,
    "problem.tokensBelowHazards": ({ each, count, least, tokens }) =>
      `Money below zero comes from Hazardous Area's −${each} ₩ tokens, ${count} in the box: at least ${minus(least)} ₩, not ${minus(tokens)} ₩.`,
    "problem.hazardsOver": ({ held, each, most }) =>
      `Together the players' money below zero takes at least ${held} of Hazardous Area's −${each} ₩ tokens, but the box has only ${most}.`,
    items: {
      tile: { gold: "gold", incense_burner: "incense burner", statue: "statue", knife: "knife", scroll: "scroll",
        crystal: "crystal", ruby: "ruby", diamond: "diamond", stone: "stone" },
      set: { gold: "gold", bronzeware: "bronzeware", scroll: "scroll", crystal: "crystal", ruby: "ruby", diamond: "diamond", stone: "stone" },
      // the kept cards, as counts; the money cards, as a refusal names them
      card: { gold_nugget: "gold card", pink_diamond: "pink diamond", appraisal: "appraisal", insurance: "insurance",
        lucky_coin: "Lucky Coin", treasure_chest: "Treasure Chest", strike_gold: "Strike Gold" },
      effect: fromTheBox(KEPT_CARDS),
      mission: { jack_of_all_trades: "Jack of All Trades", closing_shop: "Closing Shop", gold_digger: "Gold Digger",
        bronze_age: "Bronze Age", scholar: "Scholar", crystal_clear: "Crystal Clear", ruby_hunter: "Ruby Hunter",
        diamond_hunter: "Diamond Hunter", clean_hands: "Clean Hands", rock_collector: "Rock Collector", big_purse: "Big Purse",
        card_shark: "Card Shark", bundler: "Bundler", specialist: "Specialist", collector: "Collector" },
      condition: fromTheBox(MISSIONS),
      variant: { standard: "Standard", small: "2–3 players", simplified: "Simplified" },
    },
  },
  ko: {
    variant: "규칙",
    variantFor: "{low}–{high}인용.",
    variantMisfit: ({ variant, low, high, n }) => `${rule(variant)}은 ${low}–${high}인용인데, 지금 ${n}명입니다.`,
    useVariant: ({ variant }) => `${rule(variant)}으로`,
    tiles: "타일",
    money: "돈",
    moneyTokens: "돈 토큰, {unit} 액수",
    cardsKept: "가지고 있는 주황 카드",
    mission: "미션",
    missionWord: "미션",
    missionAchieved: "미션 달성",
    missionMet: "✓ 이 수로 달성했습니다.",
    missionMissed: "이 수로는 달성하지 못했습니다.",
    "part.mission": "미션", "part.missionOf": "미션: {mission} ({verdict})", achieved: "달성",
    notAchieved: "달성 못 함", missionByBonus: "보너스로 적음", missionFaceDown: "뒷면으로 둠",
    "part.cards": "찬스 카드", "part.tokens": "돈 토큰", "part.set": "{set} 세트, {tiles}",
    "part.setCancelled": "{set} 세트, {tiles}: {card}으로 0", "part.asTile": "({tile} 타일로 셈)",
    "part.trinity": "삼위일체 보너스, {n} × {bonus}",
    "part.bundlesOf": "{size}개짜리 묶음 {n}개",
    "part.leftOver": "남은 {tiles}: 묶음 안 됨", "part.inNoSet": "세트가 아닌 {tiles} × {each}",
    "problem.noTiles": ({ variant, players, tile }) => `${variant} 게임${players ? ` (${players}인)` : ""}에는 ${tile} 타일이 없습니다.`,
    "problem.noCards": ({ variant }) => `${rule(variant)}에서는 찬스 카드를 쓰지 않습니다.`,
    "problem.usedAtOnce": "{card} 카드는 바로 쓰는 카드라 끝까지 가지고 있을 수 없습니다.",
    "problem.removed": "{card}{mission}은(는) {variant} 게임에서 빠집니다.",
    "problem.sayAchieved": "{mission} 미션을 달성했는지 알려 주세요: 이 수만으로는 알 수 없습니다.",
    "problem.noMissions": ({ variant }) => `${rule(variant)}에서는 미션을 쓰지 않습니다.`,
    "problem.contradicted": ({ mission, achieved, stars }) => `이 수로는 ${mission} 미션을 ${achieved ? "달성했습니다" : "달성하지 못했습니다"}.${stars == null ? ""
      : ` 찬스 카드는 ★ 타일을 파낼 때만 뽑는데, ★ 타일이 ${stars}개뿐입니다.`}`,
    "problem.tilesOverBoard": ({ held, tile, variant, players, most }) =>
      `플레이어들이 ${tile} 타일을 모두 ${held}개 가졌지만, ${variant} 게임${players ? ` (${players}인)` : ""}에는 ${most}개뿐입니다.`,
    "problem.tilesOverSites": ({ held, variant, players, most, ends }) =>
      `플레이어들이 타일을 모두 ${held}개 가졌지만, ${variant} 게임${players ? ` (${players}인)` : ""}에서는 ${most}개까지만 가질 수 있습니다. 발굴지에 타일이 하나만 남으면 그 발굴지는 버려지고 마지막 타일은 게임에서 빠지며, 아직 파는 발굴지에는 타일이 두 개 이상 남고, 발굴지 ${ends}곳이 버려지면 게임이 끝납니다.`,
    "problem.tokensNotPlusTwo": ({ variant, each, tokens }) =>
      `${rule(variant)}에서는 돈 토큰이 +2 타일에서만 나옵니다(하나에 ${each} ₩). ${minus(tokens)} ₩은(는) 그것으로 만들 수 없습니다.`,
    "problem.tokensOverGold": ({ tile, marked, most, tokens }) =>
      `+2 타일은 가져간 사람이 계속 가지는 ${tile} 타일입니다. ${tile} 타일 ${marked}개로는 돈 토큰이 ${most} ₩까지만 나오고, ${tokens} ₩은(는) 나올 수 없습니다.`,
    "problem.tokensOverBoard": ({ held, tiles, most, variant, players }) =>
      `플레이어들이 돈 토큰을 모두 ${held} ₩ 가졌지만, ${variant} 게임${players ? ` (${players}인)` : ""}에는 +2 타일이 ${tiles}개, ${most} ₩뿐입니다.`,
    "problem.moneyOver": ({ held, most, cards, variant, players }) =>
      `플레이어들이 돈을 모두 ${held} ₩ 가졌지만, ${variant} 게임${players ? ` (${players}인)` : ""}에서 나오는 돈은 모두 ${most} ₩까지입니다. 돈은 +2 타일과 돈을 주는 찬스 카드(${named(cards)})에서만 나옵니다.`,
    "problem.cardsOver": "플레이어들이 {card} 카드를 {held}장 가졌지만, 상자에는 {most}장뿐입니다.",
    "problem.missionsOver": "플레이어들이 {mission} 미션 카드를 {held}장 가졌지만, 상자에는 한 장뿐입니다.",
    "problem.cardsOverStars": ({ stars, kept }) =>
      `찬스 카드는 ★ 타일(고문서, 수정)을 파낼 때 한 장씩만 뽑습니다. ★ 타일 ${stars}개로는 카드가 ${stars}장까지이고, ${kept}장은 될 수 없습니다.`,
    "problem.tokensBelowHazards": ({ each, count, least, tokens }) =>
      `0 ₩ 아래의 돈은 위험 지역 카드의 −${each} ₩ 토큰에서만 나옵니다. 상자에 ${count}개뿐이라 ${minus(least)} ₩까지이고, ${minus(tokens)} ₩은(는) 될 수 없습니다.`,
    "problem.hazardsOver": ({ held, each, most }) =>
      `플레이어들의 0 ₩ 아래 돈을 합치면 위험 지역 카드의 −${each} ₩ 토큰이 적어도 ${held}개 필요하지만, 상자에는 ${most}개뿐입니다.`,
    items: {
      tile: { gold: "금", incense_burner: "향로", statue: "조각상", knife: "칼", scroll: "고문서", crystal: "수정", ruby: "루비",
        diamond: "다이아몬드", stone: "돌" },
      set: { gold: "금", bronzeware: "청동기", scroll: "고문서", crystal: "수정", ruby: "루비", diamond: "다이아몬드", stone: "돌" },
      card: { gold_nugget: "금 카드", pink_diamond: "핑크 다이아몬드", appraisal: "감정", insurance: "보험",
        lucky_coin: "행운의 동전", treasure_chest: "보물 상자", strike_gold: "금맥 발견" },
      effect: { gold_nugget: "금 타일 하나로 셉니다.", pink_diamond: "다이아몬드 타일 하나로 셉니다.",
        appraisal: "게임 끝에 +{end_money} ₩.", insurance: "게임 끝에 내 돌 세트 점수를 0으로 합니다." },
      mission: { jack_of_all_trades: "팔방미인", closing_shop: "폐업 정리", gold_digger: "금광꾼", bronze_age: "청동기 시대",
        scholar: "학자", crystal_clear: "수정 같은 맑음", ruby_hunter: "루비 사냥꾼", diamond_hunter: "다이아몬드 사냥꾼",
        clean_hands: "깨끗한 손", rock_collector: "돌 수집가", big_purse: "두둑한 지갑", card_shark: "카드 도사",
        bundler: "묶음 장인", specialist: "전문가", collector: "수집가" },
      condition: {
        jack_of_all_trades: "금, 청동기, 고문서, 수정, 루비, 다이아몬드를 각각 {min}개 이상.",
        closing_shop: "게임 중 내 발굴로 유적지에 타일이 하나만 남음 (그 유적지를 닫음).",
        gold_digger: "금 {min}개 이상.", bronze_age: "삼위일체 {min}개 이상.", scholar: "고문서 {min}개 이상.",
        crystal_clear: "수정 {min}개 이상.", ruby_hunter: "루비 {min}개 이상.", diamond_hunter: "다이아몬드 {min}개 이상.",
        clean_hands: "돌 {max}개.", rock_collector: "돌 {min}개 이상.",
        big_purse: "돈 토큰이 순액 {min} ₩ 이상 (−5 토큰은 뺍니다).", card_shark: "찬스 카드를 {min}장 이상 뽑음.",
        bundler: "묶음 {min}개 이상.", specialist: "보물 세트 하나가 {min}개 이상 (청동기는 한 세트).",
        collector: "서로 다른 보물 {min}종류 이상으로 세트.",
      },
      variant: { standard: "기본", small: "2–3인", simplified: "간단 규칙" },
    },
  },
};
